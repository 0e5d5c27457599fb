package publish

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Progress is the status line of a build with tenants, redrawn in place
// on a terminal: counts by status, rate and time left. found and complete
// come from the walk (Options.Found); the counts from the units (Count),
// under report's lock, which is also the lock every drawing happens
// under. Only what needs attention is printed, above it (Above).
type Progress struct {
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

// NewProgress returns a status line drawn on w, a terminal width columns
// wide (0: unknown).
func NewProgress(w io.Writer, width int) *Progress {
	return &Progress{w: w, width: width, start: time.Now(), now: time.Now}
}

// Found is Options.Found.
func (b *Progress) Found(n int, complete bool) {
	b.found.Store(int64(n))
	if complete {
		b.complete.Store(true)
	}
}

// redrawEvery throttles the status line: a terminal redrawn more often
// shows nothing more and costs the build time.
const redrawEvery = 100 * time.Millisecond

// Count adds a tenant that ended with status s, and redraws the line if
// it has not been drawn for a while.
func (b *Progress) Count(s Status) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.counts[s]++
	if now := b.now(); now.Sub(b.last) >= redrawEvery {
		b.last = now
		b.draw()
	}
}

// Above prints something that stays (a refused tenant's reasons) above
// the status line.
func (b *Progress) Above(print func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.clear()
	print()
	b.draw()
}

// Finish draws the final line and leaves it.
func (b *Progress) Finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.draw()
	if b.drawn {
		fmt.Fprintln(b.w)
		b.drawn = false
	}
}

func (b *Progress) clear() {
	if b.drawn {
		fmt.Fprint(b.w, "\r\x1b[K")
		b.drawn = false
	}
}

func (b *Progress) draw() {
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
func (b *Progress) line() string {
	c := b.counts
	done := c[Built] + c[Unchanged] + c[Refused] + c[Skipped]
	found := max(int(b.found.Load()), done)
	elapsed := b.now().Sub(b.start)
	s := "tenants: " + Thousands(done)
	if b.complete.Load() {
		s += " of " + Thousands(found)
		if found > 0 {
			s += fmt.Sprintf(" (%d%%)", done*100/found)
		}
	} else {
		s += " of " + Thousands(found) + " found so far"
	}
	s += fmt.Sprintf(": %s built, %s unchanged, %s refused, %s skipped",
		Thousands(c[Built]), Thousands(c[Unchanged]), Thousands(c[Refused]), Thousands(c[Skipped]))
	if elapsed >= time.Second && done > 0 {
		rate := float64(done) / elapsed.Seconds()
		s += fmt.Sprintf("; %s/s", Thousands(int(rate+0.5)))
		if b.complete.Load() && found > done {
			left := time.Duration(float64(found-done) / rate * float64(time.Second))
			s += ", " + left.Round(time.Second).String() + " left"
		}
	}
	return s
}

// Thousands writes n with commas between groups of three digits.
func Thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
