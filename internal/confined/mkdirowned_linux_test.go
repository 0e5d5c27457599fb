//go:build linux

package confined

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// A directory made in a directory another user may write (a tenant's) can
// be replaced by that user the moment it exists: MkdirOwned gives away
// only the directory it created, opened without following anything, and
// never what stands at its name by then (a hard link to another user's
// file, a symlink).
func TestMkdirOwnedGivesOnlyWhatItMade(t *testing.T) {
	testenv.NeedsRoot(t)
	const victimUID, tenantUID = 1234, 4321
	for _, swap := range []string{"hard link", "symlink"} {
		t.Run(swap, func(t *testing.T) {
			base := t.TempDir()
			victim := filepath.Join(base, "victim")
			if err := os.WriteFile(victim, []byte("another user's\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(victim, victimUID, victimUID); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(base, "tenant")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer syscall.Close(fd)
			swapped := func(name string) {
				p := filepath.Join(dir, name)
				if err := os.Remove(p); err != nil {
					t.Error(err)
				}
				link := os.Link
				if swap == "symlink" {
					link = os.Symlink
				}
				if err := link(victim, p); err != nil {
					t.Error(err)
				}
			}
			err = WriteDir{fd: fd, created: swapped}.MkdirOwned("autodisc", tenantUID, tenantUID)
			if err == nil {
				t.Errorf("MkdirOwned of a directory replaced by a %s: no error", swap)
			}
			fi, err := os.Lstat(victim)
			if err != nil {
				t.Fatal(err)
			}
			if st := fi.Sys().(*syscall.Stat_t); st.Uid != victimUID {
				t.Errorf("the file linked in place of the new directory now belongs to uid %d, want %d", st.Uid, victimUID)
			}
		})
	}
}

// The same for a symlink made in such a directory: SymlinkOwned gives
// away only the symlink it created, never a file hard-linked at its name.
func TestSymlinkOwnedGivesOnlyWhatItMade(t *testing.T) {
	testenv.NeedsRoot(t)
	const victimUID, tenantUID = 1234, 4321
	base := t.TempDir()
	victim := filepath.Join(base, "victim")
	if err := os.WriteFile(victim, []byte("another user's\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(victim, victimUID, victimUID); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "tenant")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	swapped := func(name string) {
		p := filepath.Join(dir, name)
		if err := os.Remove(p); err != nil {
			t.Error(err)
		}
		if err := os.Link(victim, p); err != nil {
			t.Error(err)
		}
	}
	if err := (WriteDir{fd: fd, created: swapped}).SymlinkOwned("robots.txt", ".htdiscgen-0123456789abcdef.tmp", tenantUID, tenantUID); err == nil {
		t.Errorf("SymlinkOwned of a symlink replaced by a hard link: no error")
	}
	fi, err := os.Lstat(victim)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != victimUID {
		t.Errorf("the file linked in place of the new symlink now belongs to uid %d, want %d", st.Uid, victimUID)
	}

	// Left alone, the symlink is made and given away.
	if err := (WriteDir{fd: fd}).SymlinkOwned("robots.txt", "link", tenantUID, tenantUID); err != nil {
		t.Fatal(err)
	}
	fi, err = os.Lstat(filepath.Join(dir, "link"))
	if err != nil || fi.Mode()&os.ModeSymlink == 0 || fi.Sys().(*syscall.Stat_t).Uid != tenantUID {
		t.Errorf("the symlink made: %v %v", fi, err)
	}
}
