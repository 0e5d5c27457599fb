package output

import (
	"path/filepath"
	"strings"
	"testing"
)

// A record names paths below its root and nothing else: one its owner
// forged (RootStateDir) to name a path outside is refused at its line,
// never followed.
func TestRecordRefusesPathsOutsideRoot(t *testing.T) {
	sum := strings.Repeat("ab", 32)
	for _, line := range []string{
		"f " + sum + " ../x.txt", "f " + sum + " /etc/passwd", "l " + sum + " a/../../b",
		"f " + sum + " ./a", "f " + sum + " a//b", "d ..", "d /", "d .", "t ../.htdiscgen-0123456789abcdef.tmp",
	} {
		data := "discgen output record 2\nname public\nstate incomplete\n" + line + "\n"
		_, _, err := parseRecord([]byte(data), "r.rec")
		if err == nil || !strings.Contains(err.Error(), "r.rec:4: corrupt ownership record: path not below the output root") {
			t.Errorf("%q: %v, want it refused at line 4", line, err)
		}
	}
	good := "discgen output record 2\nname public\nstate incomplete\nd a\nf " + sum + " a/b c.txt\nt a/.htdiscgen-0123456789abcdef.tmp\n"
	if _, _, err := parseRecord([]byte(good), "r.rec"); err != nil {
		t.Errorf("a record inside its root: %v", err)
	}
}

// What a root's own state directory holds is read to a smaller bound than
// the build's own state directory, since the root's owner may fill it.
func TestRootStateBounded(t *testing.T) {
	own := RootStateDir(filepath.Join("var", "state"), "users/alice/public_html")
	if got := stateLimit(own, maxJournalSize); got != maxRootState {
		t.Errorf("a root's own state directory %s: limit %d, want %d", own, got, maxRootState)
	}
	for _, d := range []string{filepath.Join("var", "state"), filepath.Join(own, "x"), filepath.Dir(own)} {
		if got := stateLimit(d, maxJournalSize); got != maxJournalSize {
			t.Errorf("%s: limit %d, want %d", d, got, maxJournalSize)
		}
	}
}
