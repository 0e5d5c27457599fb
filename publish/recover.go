package publish

import (
	"fmt"
	"path"
	"runtime"
	"strings"
	"unicode/utf8"

	"github.com/discgen/discgen/diag"
)

// A panic is a bug in discgen, never the tenant's doing; but a tenant's
// manifest may be what reaches it, and one tenant must not stop the
// others. So every goroutine of the pipeline that works for tenants (the
// workers, the batchers) recovers a panic, refuses the tenants it was
// working for with a message that says it is a bug and where it
// happened, and goes on with the next.

// bugPrefix starts the message of a tenant refused by a panic.
const bugPrefix = "internal error (a bug in discgen; please report it): "

// maxPanicText is the most bytes of a panic's value a message shows.
const maxPanicText = 300

// bugText is the message for the panic value v, recovered in a deferred
// function called by the goroutine that panicked: its value, and the
// function, file and line that panicked.
func bugText(v any) string {
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
	return bugPrefix + s
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

// refuseAsBug marks u refused by a panic, bug being bugText's message.
func refuseAsBug(u *Unit, bug string) {
	pos := diag.Pos{File: u.Manifest}
	if pos.File == "" {
		pos.File = u.Dir
	}
	u.Status = Refused
	u.Tree = nil
	u.Diags.Errorf(pos, "", "%s", bug)
}
