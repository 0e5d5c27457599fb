package sitemap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// TestCheckDirHostile: a sitemap in the output tree that is a FIFO
// is refused at once, not waited on, and one that is a symbolic link out
// of the tree is not followed.
func TestCheckDirHostile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "public")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	testenv.Mkfifo(t, filepath.Join(out, "fifo.xml"))
	secret := filepath.Join(dir, "secret.xml")
	if err := os.WriteFile(secret, []byte("<html/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(out, "out.xml")); err != nil {
		t.Fatal(err)
	}
	robots := []byte("User-agent: *\nSitemap: https://www.fict.org/fifo.xml\nSitemap: https://www.fict.org/out.xml\nSitemap: https://www.fict.org/../secret.xml\n")
	done := make(chan string, 1)
	go func() {
		var b strings.Builder
		for _, d := range CheckDir("https://www.fict.org/", robots, out).Errors() {
			b.WriteString(d.String() + "\n")
		}
		done <- b.String()
	}()
	select {
	case got := <-done:
		for _, want := range []string{"fifo.xml is a FIFO (named pipe), not a regular file", "out.xml: path escapes from parent"} {
			if !strings.Contains(got, want) {
				t.Errorf("want %q in:\n%s", want, got)
			}
		}
		if strings.Contains(got, "secret") {
			t.Errorf("a file outside the tree was read:\n%s", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("still blocked on the FIFO after 5s")
	}
}
