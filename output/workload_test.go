package output

import (
	"os"
	"strconv"
	"testing"
)

// TestWorkload builds tenant-like roots for a syscall count (strace -c -f):
// it does nothing unless DISCGEN_WORKLOAD names a phase, "first",
// "nochange" (Plan and Apply) or "fresh" (Fresh first), with the roots
// under DISCGEN_WORKLOAD_DIR and DISCGEN_WORKLOAD_N of them.
func TestWorkload(t *testing.T) {
	phase, base := os.Getenv("DISCGEN_WORKLOAD"), os.Getenv("DISCGEN_WORKLOAD_DIR")
	if phase == "" {
		t.Skip("DISCGEN_WORKLOAD not set")
	}
	n, err := strconv.Atoi(os.Getenv("DISCGEN_WORKLOAD_N"))
	if err != nil {
		t.Fatal(err)
	}
	noSync := os.Getenv("DISCGEN_WORKLOAD_NOSYNC") != ""
	for i := range n {
		opt := tenantOpt(base, i, 0, noSync)
		root := tenantRoot(base, i)
		if phase == "fresh" {
			if ok, err := Fresh(root, opt); err != nil || ok {
				continue
			}
		}
		if _, _, err := Write(root, tenantTree(i, 0), opt); err != nil {
			t.Fatal(err)
		}
	}
}
