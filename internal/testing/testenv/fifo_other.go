//go:build !unix

package testenv

import (
	"errors"
	"runtime"
)

func mkfifo(name string) error { return errors.New("no FIFOs on " + runtime.GOOS) }
