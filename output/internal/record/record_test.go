package record

import (
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
		_, _, err := Parse([]byte(data), "r.rec")
		if err == nil || !strings.Contains(err.Error(), "r.rec:4: corrupt ownership record: path not below the output root") {
			t.Errorf("%q: %v, want it refused at line 4", line, err)
		}
	}
	good := "discgen output record 2\nname public\nstate incomplete\nd a\nf " + sum + " a/b c.txt\nt a/.htdiscgen-0123456789abcdef.tmp\n"
	if _, _, err := Parse([]byte(good), "r.rec"); err != nil {
		t.Errorf("a record inside its root: %v", err)
	}
}

// A record's temporary files are named as a build names them, or as
// earlier builds did, and nothing else is taken for one.
func TestIsTempName(t *testing.T) {
	for _, s := range []string{".htdiscgen-0123456789abcdef.tmp", ".discgen-0123456789abcdef.tmp"} {
		if !IsTempName(s) {
			t.Errorf("%q not taken for a temp name", s)
		}
	}
	for _, s := range []string{".discgen-.tmp", ".discgen-0123456789abcdeg.tmp", "discgen-0123456789abcdef.tmp", ".discgen-0123456789abcdef.tmp.x",
		".htdiscgen-.tmp", ".ht-0123456789abcdef.tmp", ".htdiscgen-0123456789abcdef.tmp.x", ".htaccess"} {
		if IsTempName(s) {
			t.Errorf("%q taken for a temp name", s)
		}
	}
}
