package record

import (
	"path/filepath"
	"testing"
)

// What a root's own state directory holds is read to a smaller bound than
// the build's own state directory, since the root's owner may fill it.
func TestRootStateBounded(t *testing.T) {
	own := RootStateDir(filepath.Join("var", "state"), "users/alice/public_html")
	if got := StateLimit(own, bigLimit); got != maxRootState {
		t.Errorf("a root's own state directory %s: limit %d, want %d", own, got, maxRootState)
	}
	for _, d := range []string{filepath.Join("var", "state"), filepath.Join(own, "x"), filepath.Dir(own)} {
		if got := StateLimit(d, bigLimit); got != bigLimit {
			t.Errorf("%s: limit %d, want %d", d, got, bigLimit)
		}
	}
}

// bigLimit is a bound past maxRootState, as output's of a journal is.
const bigLimit = 1 << 30
