// Package bug words a recovered panic as what it is: a bug in discgen,
// never the doing of the input that reached it. A goroutine that works for
// one root or tenant recovers a panic and makes it that one's error with
// Text, so that the others go on.
package bug

import (
	"fmt"
	"path"
	"runtime"
	"strings"
	"unicode/utf8"
)

// Prefix starts the message of a panic.
const Prefix = "internal error (a bug in discgen; please report it): "

// maxText is the most bytes of a panic's value a message shows.
const maxText = 300

// Text is the message for the panic value v, called (directly or not) by
// the deferred function that recovered v, while the panic's frames are
// still on the stack: Prefix, the value cut to 300 bytes, and the file
// and line that panicked.
func Text(v any) string {
	s := fmt.Sprint(v)
	if len(s) > maxText {
		cut := maxText
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	if at := site(); at != "" {
		s += " (at " + at + ")"
	}
	return Prefix + s
}

// site is where the panic being recovered was raised, as
// "pkg/file.go:line", or "" when the stack does not say: the first frame
// outside the runtime below runtime.gopanic.
func site() string {
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
