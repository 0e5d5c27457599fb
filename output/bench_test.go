package output

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/discgen/discgen/tree"
)

// benchTree is n small files spread over n/100 directories, like the
// autodisc directories of many delegations.
func benchTree(n int) tree.Tree {
	t := tree.Tree{}
	for i := range n {
		t[fmt.Sprintf("d%03d/autodisc/f%05d.txt", i/100, i)] = tree.Entry{Data: fmt.Appendf(nil, "file %d\n%0*d\n", i, 100+i%400, i)}
	}
	return t
}

// benchmarkFirstBuild measures Plan+Apply of n files into an empty root.
func benchmarkFirstBuild(b *testing.B, n int, noSync bool) {
	t := benchTree(n)
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		opt := Options{StateDir: filepath.Join(dir, "state"), NoSync: noSync}
		b.StartTimer()
		start := cpuTime()
		_, res, err := Write(filepath.Join(dir, "public"), t, opt)
		cpu += cpuTime() - start
		if err != nil || res.Added != n {
			b.Fatalf("%+v %v", res, err)
		}
	}
	reportCPU(b, cpu)
}

// reportCPU reports the process's CPU time per operation, which depends
// less than wall time on what else runs on a shared machine.
func reportCPU(b *testing.B, cpu time.Duration) {
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}

// benchmarkRebuild measures Plan+Apply of n files that are all up to date.
func benchmarkRebuild(b *testing.B, n int) {
	t := benchTree(n)
	dir := b.TempDir()
	opt := Options{StateDir: filepath.Join(dir, "state")}
	root := filepath.Join(dir, "public")
	if _, _, err := Write(root, t, opt); err != nil {
		b.Fatal(err)
	}
	start := cpuTime()
	for b.Loop() {
		c, res, err := Write(root, t, opt)
		if err != nil || !c.Empty() || res.Unchanged != n {
			b.Fatalf("%+v %v", res, err)
		}
	}
	reportCPU(b, cpuTime()-start)
}

func BenchmarkFirstBuild10k(b *testing.B)       { benchmarkFirstBuild(b, 10000, false) }
func BenchmarkFirstBuild10kNoSync(b *testing.B) { benchmarkFirstBuild(b, 10000, true) }
func BenchmarkRebuild10k(b *testing.B)          { benchmarkRebuild(b, 10000) }
