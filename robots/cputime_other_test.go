//go:build !unix

package robots

import "time"

func cpuTime() (time.Duration, bool) { return 0, false }
