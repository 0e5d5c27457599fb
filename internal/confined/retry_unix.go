//go:build unix

package confined

import "golang.org/x/sys/unix"

// retry calls f again while it is interrupted by a signal (EINTR).
func retry[T any](f func() (T, error)) (T, error) {
	for {
		v, err := f()
		if err != unix.EINTR {
			return v, err
		}
	}
}

// retry0 is retry for a call that returns only an error.
func retry0(f func() error) error {
	_, err := retry(func() (struct{}, error) { return struct{}{}, f() })
	return err
}
