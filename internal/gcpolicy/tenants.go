package gcpolicy

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Headroom is what a build of many tenants lets the heap grow by, beyond
// what is live when the tenants' workers start and what their large
// manifests may hold, before the collector runs.
//
// The soft limit Tune sets (MemoryLimit) is sized for one manifest at the
// bound. A build of many small tenants keeps a few MB live (about 8 MB at
// 10,000 realistic tenants), so at GOGC=400 its heap grew to 45 MB before
// each collection and its peak RSS reached 75–80 MB; with the limit at
// about 40 MiB the same build peaked at 49 MB for the same CPU time
// ("The tenants' soft memory limit" in the history of BENCHMARKS.md:
// git log -p BENCHMARKS.md).
const Headroom = 32 << 20

// Tenants keeps the soft memory limit close to what a build of many
// tenants holds (publish.Options.Collector): from Start to Done the
// limit is what was live at Start, plus Headroom, plus twice what the
// large manifests in work may hold (Hold; as much again for the
// collector, as publish's budget counts), never more than the limit it
// found. Done puts that limit back. With GOMEMLIMIT in the environment it
// does nothing: the environment wins.
type Tenants struct {
	mu      sync.Mutex
	off     bool
	ceiling int64 // the limit found at Start, put back by Done
	base    int64
	set     func(int64) int64 // debug.SetMemoryLimit, or a test's
}

// NewTenants returns a Tenants for one build.
func NewTenants() *Tenants {
	return &Tenants{off: os.Getenv("GOMEMLIMIT") != "", set: debug.SetMemoryLimit}
}

// Start lowers the limit to what is live now plus Headroom.
func (t *Tenants) Start() {
	if t.off {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ceiling = t.set(-1)
	t.base = retained() + Headroom
	t.set(min(t.ceiling, t.base))
}

// Hold sets the limit for held bytes of large manifests in work.
func (t *Tenants) Hold(held int64) {
	if t.off {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ceiling == 0 {
		return // not started
	}
	t.set(min(t.ceiling, t.base+2*max(held, 0)))
}

// Done puts back the limit Start found.
func (t *Tenants) Done() {
	if t.off {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ceiling != 0 {
		t.set(t.ceiling)
		t.ceiling = 0
	}
}

// retained is the memory the runtime would hold, as the soft limit counts
// it, if only the heap found live at the last collection were kept: all
// it has mapped and not released, less the free heap and the objects
// found dead.
func retained() int64 {
	s := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/gc/heap/live:bytes"},
	}
	metrics.Read(s)
	v := func(i int) int64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(min(s[i].Value.Uint64(), 1<<62))
	}
	n := v(0) - v(1) - v(2) - max(v(3)-v(4), 0)
	return max(n, 0)
}
