package main

import (
	"strings"
	"testing"
)

// --shard-index I/N is --shard (I+1)/N: a Kubernetes Indexed Job passes
// its pod's 0-based index as it is.
func TestShardIndex(t *testing.T) {
	for _, tc := range []struct {
		in   string
		k, n int
	}{{"0/8", 1, 8}, {"7/8", 8, 8}, {"0/1", 1, 1}} {
		k, n, err := parseShardIndex(tc.in)
		if err != nil || k != tc.k || n != tc.n {
			t.Errorf("%q: %d/%d, %v; want %d/%d", tc.in, k, n, err, tc.k, tc.n)
		}
	}
	for _, bad := range []string{"8/8", "-1/8", "1", "a/8", "0/0", ""} {
		if _, _, err := parseShardIndex(bad); err == nil || !strings.Contains(err.Error(), "0 <= I < N") {
			t.Errorf("%q: %v, want a usage error", bad, err)
		}
	}
	var out strings.Builder
	err := run([]string{"build", "--shard", "1/2", "--shard-index", "0/2"}, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "--shard and --shard-index do not go together") {
		t.Errorf("both flags: %v", err)
	}
}
