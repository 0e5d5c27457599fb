package confined

import (
	"errors"
	"sync"
)

// errReplaced: a directory opened again is not the one opened first.
var errReplaced = errors.New("the directory was replaced while this build was writing it; run the build again")

// dirPins remembers which directory each slash path was when first
// opened, so that one opened again (a directory is not kept open beyond
// the piece of work that opened it) is refused when it is another: every
// operation on a directory's entries then happens in the directory first
// opened there, as when its descriptor was kept.
type dirPins struct {
	mu sync.Mutex
	m  map[string]dirID
}

// check pins d to id the first time, and then refuses another directory.
func (p *dirPins) check(d string, id dirID) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if old, ok := p.m[d]; ok {
		if !old.is(id) {
			return errReplaced
		}
		return nil
	}
	if p.m == nil {
		p.m = map[string]dirID{}
	}
	p.m[d] = id
	return nil
}
