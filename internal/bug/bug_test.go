package bug

import (
	"strings"
	"testing"
)

func panicking(v any) (text string) {
	defer func() { text = Text(recover()) }()
	panic(v)
}

func TestText(t *testing.T) {
	got := panicking("boom")
	if !strings.HasPrefix(got, Prefix+"boom (at bug/bug_test.go:") {
		t.Errorf("Text = %q, want the value and where it panicked", got)
	}
	long := panicking(strings.Repeat("é", 400))
	if !strings.Contains(long, "...") || strings.Contains(long, "\uFFFD") || len(long) > len(Prefix)+maxText+60 {
		t.Errorf("a long value is not cut whole runes short: %q", long)
	}
}
