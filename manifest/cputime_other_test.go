//go:build !unix

package manifest_test

import "time"

// cpuTime is not measured here: the CPU bound is not checked.
func cpuTime() time.Duration { return 0 }

// maxRSS is not measured here: the resident bound is not checked.
func maxRSS() uint64 { return 0 }
