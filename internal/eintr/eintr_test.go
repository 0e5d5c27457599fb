//go:build unix

package eintr

import (
	"testing"

	"golang.org/x/sys/unix"
)

func TestRetry(t *testing.T) {
	calls := 0
	v, err := Retry(func() (int, error) {
		calls++
		if calls < 3 {
			return 0, unix.EINTR
		}
		return 7, nil
	})
	if v != 7 || err != nil || calls != 3 {
		t.Errorf("Retry = %d, %v after %d calls; want 7, nil after 3", v, err, calls)
	}
	if err := Retry0(func() error { return unix.EBADF }); err != unix.EBADF {
		t.Errorf("Retry0 = %v, want EBADF at once", err)
	}
}
