//go:build !unix

package publish

import "time"

// cpuTime is not measured here: the benchmark reports no CPU time.
func cpuTime() time.Duration { return 0 }
