// Command workload builds tenant-like output roots through package
// output, for a count of the system calls a phase makes (strace -f -c):
// the tenants of output's tenant benchmarks (four autodisc files each, as
// output/bench_test.go makes them), n of them under dir.
//
//	go build -o /tmp/workload ./tools/workload
//	strace -f -c -o batch.strace /tmp/workload -phase batch -dir /tmp/x/w -n 1000
//
// The phases: first (each root recovered, planned and applied by itself,
// as a first build), batch (a first build through ApplyAll, 64 roots at a
// time), nochange (as first, on roots already built) and fresh (Fresh
// first, then as first for a root it finds stale). -nosync leaves out the
// flushes, as for the builds that set up nochange and fresh.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/discgen/discgen/output"
	"github.com/discgen/discgen/tree"
)

var tenantPaths = []string{"autodisc/index.txt", "autodisc/description.txt", "autodisc/feeds.txt", "autodisc/x-contact.txt"}

// tenantTree is tenant i's tree in version v.
func tenantTree(i, v int) tree.Tree {
	t := tree.Tree{}
	for j, p := range tenantPaths {
		t[p] = tree.Entry{Data: fmt.Appendf(nil, "tenant %d file %d version %d\n%0*d\n", i, j, v, 40+(i*7+j*13)%200, i)}
	}
	return t
}

func tenantRoot(base string, i int) string {
	return filepath.Join(base, "home", fmt.Sprintf("u%05d", i), "public_html")
}

// tenantOpt gives each tenant its own record name and a key that changes
// with its version, as the pipeline does.
func tenantOpt(base string, i, v int, noSync bool) output.Options {
	return output.Options{StateDir: filepath.Join(base, "state"), Record: fmt.Sprintf("u%05d", i),
		Key: fmt.Sprintf("manifest %d v%d", i, v), NoSync: noSync}
}

func run(phase, base string, n int, noSync bool) error {
	w := output.NewWriter()
	defer w.Close()
	switch phase {
	case "batch":
		var batch []*output.Changes
		for i := range n {
			c, err := output.Plan(tenantRoot(base, i), tenantTree(i, 0), tenantOpt(base, i, 0, noSync))
			if err != nil {
				return err
			}
			batch = append(batch, c)
			if len(batch) == 64 || i == n-1 {
				if _, errs := w.ApplyAll(batch); errors.Join(errs...) != nil {
					return errors.Join(errs...)
				}
				batch = batch[:0]
			}
		}
	case "first", "nochange", "fresh":
		for i := range n {
			opt := tenantOpt(base, i, 0, noSync)
			root := tenantRoot(base, i)
			if phase == "fresh" {
				if ok, err := output.Fresh(root, opt); err != nil || ok {
					continue
				}
			}
			if _, _, err := output.Recover(opt.StateDir); err != nil {
				return err
			}
			c, err := output.Plan(root, tenantTree(i, 0), opt)
			if err != nil {
				return err
			}
			if _, err := w.Apply(c); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("-phase %q: want first, batch, nochange or fresh", phase)
	}
	return w.Flush()
}

func main() {
	phase := flag.String("phase", "", "first, batch, nochange or fresh")
	dir := flag.String("dir", "", "the directory to build the roots and their state directory in")
	n := flag.Int("n", 1000, "the number of roots")
	noSync := flag.Bool("nosync", false, "no flushes (Options.NoSync)")
	flag.Parse()
	if *phase == "" || *dir == "" || *n < 1 || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: workload -phase first|batch|nochange|fresh -dir DIR [-n N] [-nosync]")
		os.Exit(2)
	}
	if err := run(*phase, *dir, *n, *noSync); err != nil {
		fmt.Fprintln(os.Stderr, "workload:", err)
		os.Exit(1)
	}
}
