package generate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/manifest"
)

// sourceSite renders a manifest whose one well-known file has the given
// source, read relative to dir, without validation: generation must refuse
// on its own what leaves the manifest's directory.
func sourceSite(t *testing.T, dir, source string) (string, error) {
	t.Helper()
	doc, errs := manifest.LoadSite("site.yaml", []byte(`version: 1
site: {url: "https://www.example.org/"}
well_known:
  files:
    - {name: nodeinfo, source: "`+source+`"}
`), "")
	if doc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	done := make(chan string, 1)
	go func() {
		tr, errs := Site(unvalidated(doc), Options{Now: now, Dir: dir})
		if errs.HasErrors() {
			done <- "error: " + errs.Errors()[0].String()
			return
		}
		done <- "ok: " + string(tr[".well-known/nodeinfo"].Data)
	}()
	select {
	case got := <-done:
		return got, nil
	case <-time.After(5 * time.Second):
		t.Fatalf("source %q: rendering still blocked after 5s", source)
		return "", nil
	}
}

// TestSourceConfinedToManifestDir: source reads only inside the manifest's
// directory. "..", absolute paths (/etc/shadow, /proc/self/environ, which
// held a token in the environment) and symbolic links leading out are
// refused; a link that stays inside is followed.
func TestSourceConfinedToManifestDir(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "site")
	if err := os.MkdirAll(filepath.Join(dir, "files"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(top, "secret"), "TOKEN=outside")
	write(filepath.Join(dir, "files", "nodeinfo.json"), `{"inside": true}`)
	for _, l := range []struct{ target, name string }{
		{filepath.Join(top, "secret"), "abs-link"},
		{"../../secret", "rel-link"},
		{"nodeinfo.json", "inside-link"},
		{"/proc/self/environ", "environ-link"},
	} {
		if err := os.Symlink(l.target, filepath.Join(dir, "files", l.name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ source, want string }{
		{"files/nodeinfo.json", `ok: {"inside": true}`},
		{"files/inside-link", `ok: {"inside": true}`},
		{"./files/../files/nodeinfo.json", `ok: {"inside": true}`},
		{"../secret", "leads outside the manifest's directory"},
		{"files/../../secret", "leads outside the manifest's directory"},
		{"files/abs-link", "leads outside the manifest's directory"},
		{"files/rel-link", "leads outside the manifest's directory"},
		{"files/environ-link", "leads outside the manifest's directory"},
		{filepath.Join(top, "secret"), "is an absolute path"},
		{"/etc/shadow", "is an absolute path"},
		{"/proc/self/environ", "is an absolute path"},
	} {
		got, _ := sourceSite(t, dir, c.source)
		if !strings.Contains(got, c.want) {
			t.Errorf("source %q: got %q, want %q", c.source, got, c.want)
		}
		if strings.Contains(got, "TOKEN") {
			t.Errorf("source %q: the outside file's bytes leaked: %q", c.source, got)
		}
	}
}

// TestSourceNonRegularRefused: a FIFO, a device, a socket or a directory
// given as source is refused at once, never read or waited on.
func TestSourceNonRegularRefused(t *testing.T) {
	dir := t.TempDir()
	testenv.Mkfifo(t, filepath.Join(dir, "fifo"))
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ source, want string }{
		{"fifo", "is a FIFO (named pipe), not a regular file"},
		{"sub", "is a directory"},
		{"zero", "leads outside"}, // /dev/zero is outside, and a device
	} {
		got, _ := sourceSite(t, dir, c.source)
		if !strings.Contains(got, c.want) {
			t.Errorf("source %q: got %q, want %q", c.source, got, c.want)
		}
	}
}
