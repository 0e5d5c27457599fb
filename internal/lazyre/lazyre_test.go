package lazyre

import (
	"sync"
	"testing"
)

func TestRegexp(t *testing.T) {
	r := New(`^a(b+)$`)
	if r.re != nil {
		t.Fatal("compiled by New")
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if !r.MatchString("abb") || r.Match([]byte("ac")) {
				t.Error("wrong match")
			}
		})
	}
	wg.Wait()
	if got := r.FindStringSubmatch("abbb"); len(got) != 2 || got[1] != "bbb" {
		t.Errorf("FindStringSubmatch: %q", got)
	}
	first, second := r.Compiled(), r.Compiled()
	if first != second || r.String() != `^a(b+)$` {
		t.Error("compiled twice, or source lost")
	}
	defer func() {
		if recover() == nil {
			t.Error("a bad expression did not panic")
		}
	}()
	New(`(`).MatchString("")
}
