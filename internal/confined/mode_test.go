package confined

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A directory replaced after a Root first opened it is refused by a Root
// that pins (Pin), until Reset forgets the pins; a Root opened to only
// look (Look) opens the new one.
func TestPinsLookAndReset(t *testing.T) {
	root := t.TempDir()
	d := filepath.Join(root, "d")
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	pin, err := OpenRoot(root, "", false, nil, Pin)
	if err != nil {
		t.Fatal(err)
	}
	defer pin.Close()
	look, err := OpenRoot(root, "", false, nil, Look)
	if err != nil {
		t.Fatal(err)
	}
	defer look.Close()
	for _, r := range []*Root{pin, look} {
		if err := r.Reach("d"); err != nil {
			t.Fatal(err)
		}
		r.Forget("d")
	}
	if err := os.Rename(d, d+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := pin.Reach("d"); !errors.Is(err, errReplaced) {
		t.Errorf("Pin: the replaced directory opened again: %v, want errReplaced", err)
	}
	if err := look.Reach("d"); err != nil {
		t.Errorf("Look: the replaced directory: %v", err)
	}
	pin.Reset()
	if err := pin.Reach("d"); err != nil {
		t.Errorf("Pin after Reset: the replaced directory: %v", err)
	}
	// Pinned again, to the new directory.
	pin.Forget("d")
	if err := os.Rename(d, d+".new"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(d+".old", d); err != nil {
		t.Fatal(err)
	}
	if err := pin.Reach("d"); !errors.Is(err, errReplaced) {
		t.Errorf("Pin after Reset: the first directory back: %v, want errReplaced", err)
	}
}
