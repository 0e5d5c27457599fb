//go:build !unix

package validate_test

import "time"

func cpuTime() (time.Duration, bool) { return 0, false }
