package output

import (
	"os"
	"path/filepath"
	"runtime"
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

// A state file is replaced, never written through what lies at its
// name: a symlink (or a hard link) at a temporary file's name or at a
// stat cache rewritten in place leaves the file it leads to alone.
func TestStateFilesNotWrittenThrough(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("state files are opened without following symlinks on Linux")
	}
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, stat, linked := filepath.Join(dir, "x.rec"), filepath.Join(dir, "x.stat"), filepath.Join(dir, "y.stat")
	for _, p := range []string{rec + ".tmp", stat} {
		if err := os.Symlink(victim, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(victim, linked); err != nil {
		t.Fatal(err)
	}
	if _, err := writeStateFile(rec+".tmp", rec, []byte("record\n"), false, false); err != nil {
		t.Errorf("record: %v", err)
	}
	for _, p := range []string{stat, linked} {
		if _, err := writeStateFile(p, p, []byte("cache\n"), false, false); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if got := mustRead(t, p); got != "cache\n" {
			t.Errorf("%s = %q", p, got)
		}
	}
	if got := mustRead(t, rec); got != "record\n" {
		t.Errorf("record = %q", got)
	}
	if got := mustRead(t, victim); got != "keep\n" {
		t.Errorf("written through a link: victim = %q", got)
	}
	// Nor is one read through a symlink.
	if _, _, err := readStateFile(stat+".l", 1<<20); err == nil {
		t.Error("read a missing file")
	}
	if err := os.Symlink(victim, stat+".l"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := readStateFile(stat+".l", 1<<20); err == nil {
		t.Error("a state file read through a symlink")
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
