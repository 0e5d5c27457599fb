package main

import (
	"os"
	"runtime/debug"

	"github.com/discgen/discgen/internal/hostlimits"
)

// fitMemory lowers the Go runtime's soft memory limit to half the memory
// the host leaves this process (the address-space limit beyond what the
// runtime reserved at start-up, or the cgroup's memory limit), so that
// the collector works before the heap reaches a limit it cannot pass: the
// runtime reserves its heap in 64 MiB arenas and dies, with a trace, when
// it cannot. The build's memory budget follows the soft limit
// (publish/sizing.go). GOMEMLIMIT in the environment still wins.
func fitMemory() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	room := hostlimits.Read().MemoryRoom()
	if room == 0 {
		return
	}
	if lim := int64(min(room/2, 1<<62)); lim < debug.SetMemoryLimit(-1) {
		debug.SetMemoryLimit(lim)
	}
}
