//go:build !unix

package output

import "time"

func cpuTime() time.Duration { return 0 }
