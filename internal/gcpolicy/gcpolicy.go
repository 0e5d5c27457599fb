// Package gcpolicy sets the Go garbage collector as a discgen process
// runs it, so that the memory bound of one manifest holds for what an
// operator sees (the process's resident size), not only for the heap
// found live.
//
// A build allocates much per tenant and keeps little: a few MB stay live
// whatever the number of tenants, so the default GOGC=100 collects every
// few MB. At Percent (400) a 20,000-tenant build spent a quarter less user
// CPU (git log -p BENCHMARKS.md). But the heap may then grow to five times what is
// live before a collection: a manifest under the limits keeps at most
// 64 MiB live, and at 400 one of 200,000 icons reached 196 MB of RSS. The
// soft MemoryLimit (96 MiB) makes the collector run before the heap
// passes it, which holds the RSS of any one manifest's build under
// 128 MiB (TestBounds measures it with this policy); a heap that must
// hold more live data than the limit (a full build with many hostile
// tenants in work at once) still grows, collected more often. A build of
// many tenants lowers the soft limit while its tenants are in work to what
// they hold (Tenants), since 96 MiB is room for one manifest at the bound,
// not for thousands of small ones.
package gcpolicy

import (
	"os"
	"runtime/debug"

	"github.com/discgen/discgen/internal/hostlimits"
)

const (
	// Percent is the GOGC discgen runs with.
	Percent = 400
	// MemoryLimit is the soft memory limit (GOMEMLIMIT) discgen runs with.
	MemoryLimit = 96 << 20
)

// Tune applies the policy; GOGC and GOMEMLIMIT in the environment win.
func Tune() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(MemoryLimit)
	}
}

// OneShot is the policy of a command that reads one input of bounded size,
// answers and exits (discgen check): it keeps most of what it allocates
// until it exits, so collecting in proportion to the heap only marks the
// same data again and again (a fifth of the CPU of a check on a 3.5 MB
// robots.txt). It turns the proportional collector off; the soft memory
// limit (Tune, FitHost) still makes it collect before the heap passes
// it. GOGC in the environment still wins.
func OneShot() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(-1)
	}
}

// FitHost lowers the soft memory limit to half the memory the host
// leaves this process (the address-space limit beyond what the runtime
// reserved at start-up, or the cgroup's memory limit: l.MemoryRoom, from
// hostlimits.Memory or Read), so that the
// collector works before the heap reaches a limit it cannot pass: the
// runtime reserves its heap in 64 MiB arenas and dies, with a trace, when
// it cannot. A build's memory budget follows the soft limit
// (publish/sizing.go). It is called once, at start-up, after Tune;
// GOMEMLIMIT in the environment still wins.
func FitHost(l hostlimits.Limits) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	room := l.MemoryRoom()
	if room == 0 {
		return
	}
	if lim := int64(min(room/2, 1<<62)); lim < debug.SetMemoryLimit(-1) {
		debug.SetMemoryLimit(lim)
	}
}
