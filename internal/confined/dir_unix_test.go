//go:build unix

package confined

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A save that replaces a tenant's manifest (a rename over it) between the
// walk's stat and the read is read, not refused: a build beside a save
// must not fail. A FIFO swapped in is still refused without being waited
// on.
func TestReadManifestReplacedBySave(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "autodisc.yaml")
	if err := os.WriteFile(name, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := OpenTop(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	want, err := d.Lstat("autodisc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(dir, ".autodisc.yaml.save")
	if err := os.WriteFile(saved, []byte("version: 1\ndescription: saved\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(saved, name); err != nil {
		t.Fatal(err)
	}
	data, info, err := d.ReadFile("autodisc.yaml", want, 1<<20)
	if err != nil || string(data) != "version: 1\ndescription: saved\n" {
		t.Fatalf("manifest replaced by a save: %q, %v", data, err)
	}
	if now, _ := d.Lstat("autodisc.yaml"); !info.Is(now) || info.Is(want) {
		t.Errorf("read %+v, want the saved file %+v", info, now)
	}
	os.Remove(name)
	if err := syscall.Mkfifo(name, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	if _, _, err := d.ReadFile("autodisc.yaml", want, 1<<20); err == nil {
		t.Error("a FIFO swapped in was read")
	}
}
