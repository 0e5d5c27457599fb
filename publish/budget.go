package publish

import (
	"bytes"
	"sync"
)

// budget is the build's memory budget for manifests in work: a weighted
// semaphore, first come first served, so that a heavy manifest waiting
// for room is not passed over forever by lighter ones. Small manifests
// do not take part: their share is set aside (smallCost per worker) and
// they never wait, so a queue of heavy tenants cannot hold up the many
// small ones.
//
// golang.org/x/sync/semaphore does the same; these forty lines keep the
// build free of another module.
type budget struct {
	mu      sync.Mutex
	free    int64
	size    int64
	waiters []*waiter // in arrival order
	// held, when set, is told the bytes taken, each time they change
	// (under mu, so in order).
	held func(int64)
}

type waiter struct {
	n     int64
	ready chan struct{}
}

func newBudget(size int64) *budget { return &budget{free: size, size: size} }

// acquire waits until n bytes of budget are free and takes them. n is cut
// to the whole budget, so that any manifest can run, alone.
func (b *budget) acquire(n int64) int64 {
	n = min(n, b.size)
	if n <= 0 {
		return 0 // a small manifest, from its worker's share
	}
	b.mu.Lock()
	if len(b.waiters) == 0 && b.free >= n {
		b.free -= n
		b.tell()
		b.mu.Unlock()
		return n
	}
	w := &waiter{n: n, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	b.mu.Unlock()
	<-w.ready
	return n
}

// release gives back n bytes, and wakes the waiters that now fit, in
// order.
func (b *budget) release(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.free += n
	for len(b.waiters) > 0 && b.free >= b.waiters[0].n {
		w := b.waiters[0]
		b.waiters = b.waiters[1:]
		b.free -= w.n
		close(w.ready)
	}
	b.tell()
}

// tell gives held the bytes taken; b.mu is held.
func (b *budget) tell() {
	if b.held != nil {
		b.held(b.size - b.free)
	}
}

// manifestCost is what loading, validating and rendering data is counted
// at: costPerByte a byte, or costMax for a manifest that uses aliases,
// which can expand to that bound from a few bytes. 0 for a small manifest
// without aliases, which takes from the set-aside share.
func manifestCost(data []byte) int64 {
	if hasAlias(data) {
		return costMax
	}
	if len(data) < smallManifest {
		return 0
	}
	return min(int64(len(data))*costPerByte, costMax)
}

// hasAlias reports whether data may hold a YAML alias: a '*' where a value
// starts (after a space, '[', '{', ',' or at a line's start) followed by
// an anchor name. A plain scalar cannot start with '*', so a manifest
// without one has no alias; text inside a scalar may match too, which
// only makes the manifest wait longer.
func hasAlias(data []byte) bool {
	for i := bytes.IndexByte(data, '*'); i >= 0; {
		if i+1 < len(data) && (i == 0 || bytes.IndexByte([]byte(" \t\n[{,"), data[i-1]) >= 0) &&
			bytes.IndexByte([]byte(" \t\r\n,]}\"'"), data[i+1]) < 0 {
			return true
		}
		j := bytes.IndexByte(data[i+1:], '*')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// reserveState takes the memory of reading and parsing a tenant's
// ownership record or stat cache from the build's budget
// (output.Options.Reserve): a tenant writes them when it saves as its own
// user, and a build reads one of each for every tenant it plans. Output
// asks only for those past 64 KiB; smaller ones take from their worker's
// share, as small manifests do.
func (p *pipeline) reserveState(n int64) func() {
	if n <= smallStateCost {
		return func() {}
	}
	got := p.heavy.acquire(n)
	return func() { p.heavy.release(got) }
}
