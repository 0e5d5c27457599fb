//go:build !unix

package build

import "time"

// cpuTime is not measured here: the benchmark reports no CPU time.
func cpuTime() time.Duration { return 0 }
