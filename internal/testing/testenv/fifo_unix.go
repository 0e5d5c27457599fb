//go:build unix

package testenv

import "syscall"

func mkfifo(name string) error { return syscall.Mkfifo(name, 0o644) }
