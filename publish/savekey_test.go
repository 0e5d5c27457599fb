package publish

import (
	"os"
	"path/filepath"
	"testing"
)

// A manifest replaced by a save between the walk's stat and the read is
// built from the file read, and keyed by it: the next build finds the
// tenant unchanged without reading it, not keyed by the file the walk saw.
func TestKeyOfTheFileRead(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"site.yaml": isolationSite,
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/")})
	manifest := filepath.Join(dir, "users/alice/public_html/autodisc.yaml")
	saved, reads := false, 0
	h := &hooks{read: func(string) {
		if reads++; saved {
			return
		}
		saved = true
		tmp := manifest + ".save"
		if err := os.WriteFile(tmp, []byte("version: 1\npath: /~alice/\ndescription: saved\n"), 0o644); err != nil {
			t.Error(err)
		}
		if err := os.Rename(tmp, manifest); err != nil {
			t.Error(err)
		}
	}}
	const alice = "users/alice/public_html"
	if o := publishAt(t, dir, hooked(h, nil)); o.status[alice] != Built {
		t.Fatalf("first build: %s", o.status[alice])
	}
	reads = 0
	if o := publishAt(t, dir, hooked(h, nil)); o.status[alice] != Unchanged || reads != 0 {
		t.Errorf("the build after: %s, manifest read %d times; want it found unchanged without a read (keyed by the file read)", o.status[alice], reads)
	}
}
