package output

import (
	"fmt"

	"github.com/discgen/discgen/internal/bug"
)

// A panic is a bug in discgen, never a root's doing; but one root's
// content may be what reaches it, and one root must not stop the others
// of its batch. So every goroutine ApplyAll starts (one per root at a
// time, eachRoot, and the writers of a large tree, parallel) recovers a
// panic, and makes it the error of the root it was working for, saying
// it is a bug and where it happened: that root fails as after any other
// error (its temporary files removed, or, once its journal is written,
// its record its intent), and the others are published.

// bugError is the error of root for the panic value v; it is called by
// a deferred function of the goroutine that panicked, which recovered v.
func bugError(root string, v any) error {
	return fmt.Errorf("%s: %s", root, bug.Text(v))
}

// recoverBug, deferred by a goroutine working on the root of a, fails
// that root when the goroutine panics, as any error of its does.
func (a *applying) recoverBug() {
	v := recover()
	if v == nil {
		return
	}
	err := bugError(a.c.Root, v)
	func() {
		// What a panic left may not be whole: removing the root's
		// temporary files is tried, and a second panic only leaves
		// them to the next build, as a kill would.
		defer func() { recover() }()
		a.c.dropTemps(a.todo)
	}()
	a.err, a.done = err, true
}
