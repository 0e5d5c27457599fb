package output

import (
	"fmt"
	"path"
	"runtime"
	"strings"
	"unicode/utf8"
)

// A panic is a bug in discgen, never a root's doing; but one root's
// content may be what reaches it, and one root must not stop the others
// of its batch. So every goroutine ApplyAll starts (one per root at a
// time, eachRoot, and the writers of a large tree, parallel) recovers a
// panic, and makes it the error of the root it was working for, saying
// it is a bug and where it happened: that root fails as after any other
// error (its temporary files removed, or, once its journal is written,
// its record its intent), and the others are published.

// bugPrefix starts the message of a root failed by a panic.
const bugPrefix = "internal error (a bug in discgen; please report it): "

// maxPanicText is the most bytes of a panic's value a message shows.
const maxPanicText = 300

// bugError is the error of root for the panic value v; it is called by
// a deferred function of the goroutine that panicked, which recovered v.
func bugError(root string, v any) error {
	s := fmt.Sprint(v)
	if len(s) > maxPanicText {
		cut := maxPanicText
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	if at := panicSite(); at != "" {
		s += " (at " + at + ")"
	}
	return fmt.Errorf("%s: %s%s", root, bugPrefix, s)
}

// panicSite is where the panic being recovered was raised, as
// "pkg/file.go:line", or "" when the stack does not say: the first frame
// outside the runtime below runtime.gopanic.
func panicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	below := false
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			below = true
		case below && !strings.HasPrefix(f.Function, "runtime."):
			return path.Join(path.Base(path.Dir(f.File)), path.Base(f.File)) + fmt.Sprintf(":%d", f.Line)
		}
		if !more {
			return ""
		}
	}
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
