package output

import (
	"errors"
	"os"
	"strconv"
	"testing"
)

// TestWorkload builds tenant-like roots for a syscall count (strace -c -f):
// it does nothing unless DISCGEN_WORKLOAD names a phase, "first",
// "batch" (a first build through ApplyAll, 64 roots at a time), "nochange"
// (Plan and Apply) or "fresh" (Fresh first), with the roots
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
	if phase == "batch" {
		var batch []*Changes
		for i := range n {
			c, err := Plan(tenantRoot(base, i), tenantTree(i, 0), tenantOpt(base, i, 0, noSync))
			if err != nil {
				t.Fatal(err)
			}
			batch = append(batch, c)
			if len(batch) == 64 || i == n-1 {
				if _, errs := ApplyAll(batch); errors.Join(errs...) != nil {
					t.Fatal(errors.Join(errs...))
				}
				batch = batch[:0]
			}
		}
		return
	}
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
