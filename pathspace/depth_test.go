package pathspace

import (
	"errors"
	"strings"
	"testing"
)

func TestParseDepth(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("a/", n) }
	if _, err := Parse(Root(), deep(MaxDepth)); err != nil {
		t.Errorf("%d segments: %v", MaxDepth, err)
	}
	_, err := Parse(Root(), deep(MaxDepth+1))
	var pe *Error
	if !errors.As(err, &pe) || pe.Kind != TooDeep {
		t.Errorf("%d segments: got %v, want a TooDeep error", MaxDepth+1, err)
	}
	// The delegator's segments count.
	base, err := Parse(Root(), deep(10))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(base, deep(MaxDepth-10)); err != nil {
		t.Errorf("%d below a space of 10: %v", MaxDepth-10, err)
	}
	if _, err := Parse(base, deep(MaxDepth-9)); !errors.As(err, &pe) || pe.Kind != TooDeep {
		t.Errorf("%d below a space of 10: got %v, want a TooDeep error", MaxDepth-9, err)
	}
	// A path of thousands of segments is refused without reading it all
	// into a space.
	if _, err := Parse(Root(), deep(4000)); !errors.As(err, &pe) || pe.Kind != TooDeep {
		t.Errorf("4000 segments: got %v", err)
	}
}
