// Command writehost writes a shared host's tree for a build by hand, as
// publish's tests and benchmarks write theirs (tools/hostgen): a site
// manifest site.yaml delegating "~*" to n tenants under users/, each
// with a few pages of the user's own, or the hostile tree of the
// shared-host limit tests.
//
//	go run ./tools/writehost -dir /tmp/host -n 100000
//	cd /tmp/host && time discgen build -o public
//
//	go run ./tools/writehost -dir /tmp/hostile -hostile
//
// -mix uniform writes ScaleSite's one small shape for every tenant, the
// mix of the scale runs BENCHMARKS.md recorded before the realistic one.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/discgen/discgen/tools/hostgen"
)

// exiter is a hostgen.TB that prints an error and exits.
type exiter struct{}

func (exiter) Helper() {}
func (exiter) Fatal(args ...any) {
	fmt.Fprintln(os.Stderr, append([]any{"writehost:"}, args...)...)
	os.Exit(1)
}
func (exiter) Fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "writehost: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	dir := flag.String("dir", "", "the directory to write the tree into (made if missing)")
	n := flag.Int("n", 1000, "the number of tenants")
	mix := flag.String("mix", hostgen.MixRealistic, "the tenants: "+hostgen.MixRealistic+" or "+hostgen.MixUniform)
	hostile := flag.Bool("hostile", false, "write the hostile tree of the shared-host tests (200 tenants, 8 refused or skipped) instead")
	flag.Parse()
	if *dir == "" || *n < 1 || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: writehost -dir DIR [-n N] [-mix realistic|uniform] | writehost -dir DIR -hostile")
		os.Exit(2)
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		exiter{}.Fatal(err)
	}
	if *hostile {
		hostile := hostileTree
		if hostile == nil {
			exiter{}.Fatal("the hostile tree needs FIFOs: not on this system")
		}
		hostile(exiter{}, *dir)
		return
	}
	hostgen.Host(exiter{}, *dir, *n, *mix)
}
