package statedir

import (
	"errors"
	"fmt"
	"os"
	"testing"
	"time"
)

// LockKey excludes two locks of one key in one process (each is an open
// of its own), not two keys; releasing one lets the next take it; many
// held at once are bytes of one file.
func TestLockKey(t *testing.T) {
	dir := t.TempDir()
	a, err := LockKey(dir, "1.2", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = LockKey(dir, "1.2", 20*time.Millisecond)
	var be *BusyError
	if !errors.As(err, &be) {
		t.Fatalf("a second lock of a held key: %v, want busy", err)
	}
	if waited := time.Since(start); waited < 20*time.Millisecond {
		t.Errorf("a held key refused after %v, want a wait of 20ms", waited)
	}
	var held []interface{ Close() error }
	for i := range 100 {
		l, err := LockKey(dir, fmt.Sprintf("1.%d", 1000+i), 0)
		if err != nil {
			t.Fatalf("key %d: %v", i, err)
		}
		held = append(held, l)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 || ents[0].Name() != KeysFile {
		t.Errorf("lock directory holds %v, want %s alone", ents, KeysFile)
	}
	for _, l := range held {
		l.Close()
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := LockKey(dir, "1.2", 0)
	if err != nil {
		t.Fatalf("a released key: %v", err)
	}
	b.Close()
}

// A planted symlink is not followed.
func TestLockKeySymlink(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(t.TempDir()+"/elsewhere", dir+"/"+KeysFile); err != nil {
		t.Fatal(err)
	}
	if l, err := LockKey(dir, "1.2", 0); err == nil {
		l.Close()
		t.Fatal("locked through a symlink")
	}
}
