//go:build unix

package rawstat

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestModeMatchesLstat compares Mode with os.Lstat for each kind of file
// a test can make without privileges.
func TestModeMatchesLstat(t *testing.T) {
	dir := t.TempDir()
	paths := map[string]func(string) error{
		"file":    func(p string) error { return os.WriteFile(p, nil, 0o640) },
		"dir":     func(p string) error { return os.Mkdir(p, 0o755) },
		"sticky":  func(p string) error { return os.Mkdir(p, 0o755|os.ModeSticky) },
		"symlink": func(p string) error { return os.Symlink("file", p) },
		"fifo":    func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"socket": func(p string) error {
			l, err := net.Listen("unix", p)
			if err == nil {
				t.Cleanup(func() { l.Close() })
			}
			return err
		},
	}
	for name, make := range paths {
		p := filepath.Join(dir, name)
		if err := make(p); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name == "sticky" {
			os.Chmod(p, 0o755|os.ModeSticky) // mkdir drops the bit under some umasks
		}
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			t.Fatal(err)
		}
		if got := Mode(uint32(st.Mode)); got != fi.Mode() {
			t.Errorf("%s: Mode = %v, os.Lstat says %v", name, got, fi.Mode())
		}
	}
}
