//go:build unix

// Package eintr retries a system call that a signal interrupted (EINTR),
// as the os package does for the calls it makes.
package eintr

import "golang.org/x/sys/unix"

// Retry calls f again while it is interrupted by a signal (EINTR).
func Retry[T any](f func() (T, error)) (T, error) {
	for {
		v, err := f()
		if err != unix.EINTR {
			return v, err
		}
	}
}

// Retry0 is Retry for a call that returns only an error.
func Retry0(f func() error) error {
	_, err := Retry(func() (struct{}, error) { return struct{}{}, f() })
	return err
}
