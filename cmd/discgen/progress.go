package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/discgen/discgen/publish"
	"golang.org/x/term"
)

// Progress of a build with tenants, --progress:
//
//	lines  one line per tenant built, on stdout (what pipes and logs get)
//	bar    one status line on stderr, redrawn in place: counts by status,
//	       rate and time left; only tenants that need attention (refused,
//	       skipped) are printed, above it
//	auto   bar when stderr is a terminal and the format is text, else lines
//
// At a million tenants the lines form is a million lines; the bar is one.
const progressModes = "auto, bar or lines"

// progressValues are the --progress values, for completion.
var progressValues = []string{"auto", "bar", "lines"}

// wantBar decides --progress for a text build: bar or lines.
func wantBar(mode, format string, stderr io.Writer) (bool, error) {
	switch mode {
	case "lines":
		return false, nil
	case "bar":
		return format == "text", nil
	case "auto", "":
		f, ok := stderr.(*os.File)
		return format == "text" && ok && term.IsTerminal(int(f.Fd())), nil
	}
	return false, usagef("--progress %q: want %s", mode, progressModes)
}

// progressBar draws the status line. found and complete come from the
// walk (publish.Options.Found); the counts from the units, under report's
// lock, which is also the lock every drawing happens under.
type progressBar struct {
	w        io.Writer
	width    int
	start    time.Time
	now      func() time.Time
	found    atomic.Int64
	complete atomic.Bool

	mu     sync.Mutex // guards what follows, and the drawing
	counts [4]int
	drawn  bool      // the line is on screen and must be cleared first
	last   time.Time // the last draw, for the throttle
}

func newProgressBar(w io.Writer) *progressBar {
	width := 0
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
			width = cols
		}
	}
	return &progressBar{w: w, width: width, start: time.Now(), now: time.Now}
}

// setFound is publish.Options.Found.
func (b *progressBar) setFound(n int, complete bool) {
	b.found.Store(int64(n))
	if complete {
		b.complete.Store(true)
	}
}

// redrawEvery throttles the status line: a terminal redrawn more often
// shows nothing more and costs the build time.
const redrawEvery = 100 * time.Millisecond

// count adds a tenant that ended with status s, and redraws the line if
// it has not been drawn for a while.
func (b *progressBar) count(s publish.Status) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.counts[s]++
	if now := b.now(); now.Sub(b.last) >= redrawEvery {
		b.last = now
		b.draw()
	}
}

// above prints something that stays (a refused tenant's reasons) above
// the status line.
func (b *progressBar) above(print func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.clear()
	print()
	b.draw()
}

// finish draws the final line and leaves it.
func (b *progressBar) finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.draw()
	if b.drawn {
		fmt.Fprintln(b.w)
		b.drawn = false
	}
}

func (b *progressBar) clear() {
	if b.drawn {
		fmt.Fprint(b.w, "\r\x1b[K")
		b.drawn = false
	}
}

func (b *progressBar) draw() {
	if b.found.Load() == 0 && b.counts == [4]int{} {
		return // no tenant yet, maybe none at all: nothing to show
	}
	line := b.line()
	if b.width > 1 && len(line) >= b.width {
		line = line[:b.width-1] // a wrapped line cannot be redrawn in place
	}
	b.clear()
	fmt.Fprint(b.w, line)
	b.drawn = true
}

// line is the status: "tenants: 5,120 of 20,000 (25%): 4,900 built, 200
// unchanged, 20 refused, 0 skipped; 1,204/s, 13s left".
func (b *progressBar) line() string {
	c := b.counts
	done := c[publish.Built] + c[publish.Unchanged] + c[publish.Refused] + c[publish.Skipped]
	found := max(int(b.found.Load()), done)
	elapsed := b.now().Sub(b.start)
	s := "tenants: " + thousands(done)
	if b.complete.Load() {
		s += " of " + thousands(found)
		if found > 0 {
			s += fmt.Sprintf(" (%d%%)", done*100/found)
		}
	} else {
		s += " of " + thousands(found) + " found so far"
	}
	s += fmt.Sprintf(": %s built, %s unchanged, %s refused, %s skipped",
		thousands(c[publish.Built]), thousands(c[publish.Unchanged]), thousands(c[publish.Refused]), thousands(c[publish.Skipped]))
	if elapsed >= time.Second && done > 0 {
		rate := float64(done) / elapsed.Seconds()
		s += fmt.Sprintf("; %s/s", thousands(int(rate+0.5)))
		if b.complete.Load() && found > done {
			left := time.Duration(float64(found-done) / rate * float64(time.Second))
			s += ", " + left.Round(time.Second).String() + " left"
		}
	}
	return s
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
