package publish

import (
	"bytes"
	"testing"
	"time"
)

func TestProgressLine(t *testing.T) {
	clock := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	b := &Progress{w: &out, start: clock, now: func() time.Time { return clock }}
	b.draw()
	if out.Len() != 0 {
		t.Errorf("drawn before any tenant: %q", out.String())
	}
	b.Found(1500, false)
	for range 1200 {
		b.counts[Built]++
	}
	b.counts[Refused] = 3
	clock = clock.Add(2 * time.Second)
	if got, want := b.line(), "tenants: 1,203 of 1,500 found so far: 1,200 built, 0 unchanged, 3 refused, 0 skipped; 602/s"; got != want {
		t.Errorf("line = %q, want %q", got, want)
	}
	b.Found(20000, true)
	if got, want := b.line(), "tenants: 1,203 of 20,000 (6%): 1,200 built, 0 unchanged, 3 refused, 0 skipped; 602/s, 31s left"; got != want {
		t.Errorf("line = %q, want %q", got, want)
	}
	// A narrow terminal gets the line cut, never wrapped.
	b.width = 20
	b.draw()
	b.Finish()
	if got := out.String(); got != "tenants: 1,203 of 2\r\x1b[Ktenants: 1,203 of 2\n" {
		t.Errorf("drawn %q", got)
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
