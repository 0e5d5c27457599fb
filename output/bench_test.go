package output

import (
	"fmt"
	"os"
	"os/exec"
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

// benchRoots is how many tenant-like roots the many-roots benchmarks
// build per operation.
const benchRoots = 1000

// tenantPaths are the files a tenant's directory gets, about the 4.3 files
// per tenant of a large shared host.
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
func tenantOpt(base string, i, v int, noSync bool) Options {
	return Options{StateDir: filepath.Join(base, "state"), Record: fmt.Sprintf("u%05d", i),
		Key: fmt.Sprintf("manifest %d v%d", i, v), NoSync: noSync}
}

// buildRoots brings every root to version ver(i), skipping fresh ones
// when useFresh is set, and returns how many it wrote.
func buildRoots(b *testing.B, base string, ver func(int) int, noSync, useFresh bool) (written int) {
	for i := range benchRoots {
		opt := tenantOpt(base, i, ver(i), noSync)
		root := tenantRoot(base, i)
		if useFresh {
			if ok, err := Fresh(root, opt); err != nil {
				b.Fatal(err)
			} else if ok {
				continue
			}
		}
		c, res, err := Write(root, tenantTree(i, ver(i)), opt)
		if err != nil {
			b.Fatal(err)
		}
		if !c.Empty() {
			written++
		}
		_ = res
	}
	return written
}

func v0(int) int { return 0 }

// buildBatches builds version 0 of every root, applying n plans at a time.
func buildBatches(b *testing.B, base string, n int) (written int) {
	var batch []*Changes
	apply := func() {
		_, errs := ApplyAll(batch)
		for _, err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
		for _, c := range batch {
			if !c.Empty() {
				written++
			}
		}
		batch = batch[:0]
	}
	for i := range benchRoots {
		c, err := Plan(tenantRoot(base, i), tenantTree(i, 0), tenantOpt(base, i, 0, false))
		if err != nil {
			b.Fatal(err)
		}
		if batch = append(batch, c); len(batch) == n {
			apply()
		}
	}
	apply()
	return written
}

// BenchmarkRoots builds benchRoots small roots per operation, against two
// floors measured in the same run: plain os.WriteFile of the same files,
// and tar -x of the very tree a build produced.
func BenchmarkRoots(b *testing.B) {
	// Into an empty directory each time: with a flush per root, without
	// any, and as a pipeline applies (plans of 64 roots at a time through
	// ApplyAll, one journal and one flush per batch on Linux).
	first := map[string]func(b *testing.B, base string) int{
		"first":         func(b *testing.B, base string) int { return buildRoots(b, base, v0, false, false) },
		"first-nosync":  func(b *testing.B, base string) int { return buildRoots(b, base, v0, true, false) },
		"first-batch64": func(b *testing.B, base string) int { return buildBatches(b, base, 64) },
	}
	for _, name := range []string{"first", "first-nosync", "first-batch64"} {
		b.Run(name, func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				base := b.TempDir()
				b.StartTimer()
				start := cpuTime()
				if n := first[name](b, base); n != benchRoots {
					b.Fatalf("%d roots written", n)
				}
				cpu += cpuTime() - start
			}
			reportCPU(b, cpu)
		})
	}
	b.Run("floor-writefile", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			base := b.TempDir()
			b.StartTimer()
			for i := range benchRoots {
				root := tenantRoot(base, i)
				for p, e := range tenantTree(i, 0) {
					name := filepath.Join(root, filepath.FromSlash(p))
					if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
						b.Fatal(err)
					}
					if err := os.WriteFile(name, e.Data, 0o644); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	})
	b.Run("floor-tar", func(b *testing.B) {
		if _, err := exec.LookPath("tar"); err != nil {
			b.Skip("tar: not installed")
		}
		src := b.TempDir()
		buildRoots(b, src, v0, true, false)
		archive := filepath.Join(b.TempDir(), "home.tar")
		if out, err := exec.Command("tar", "-cf", archive, "-C", src, "home").CombinedOutput(); err != nil {
			b.Fatalf("tar -c: %v\n%s", err, out)
		}
		for _, sync := range []bool{false, true} {
			name := "plain"
			if sync {
				name = "then-syncfs"
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					dst := b.TempDir()
					b.StartTimer()
					if out, err := exec.Command("tar", "-xf", archive, "-C", dst).CombinedOutput(); err != nil {
						b.Fatalf("tar -x: %v\n%s", err, out)
					}
					// The durable floor: the same files, then one
					// flush of the filesystem (coreutils sync -f is
					// syncfs).
					if sync {
						if out, err := exec.Command("sync", "-f", dst).CombinedOutput(); err != nil {
							b.Fatalf("sync -f: %v\n%s", err, out)
						}
					}
				}
			})
		}
	})
	// Rebuilds with nothing changed: through Fresh (the pipeline's fast
	// path), and through Plan and Apply without it.
	for _, useFresh := range []bool{true, false} {
		name := "nochange-plan"
		if useFresh {
			name = "nochange-fresh"
		}
		b.Run(name, func(b *testing.B) {
			base := b.TempDir()
			buildRoots(b, base, v0, true, false)
			buildRoots(b, base, v0, true, false) // the cache settles
			start := cpuTime()
			for b.Loop() {
				if n := buildRoots(b, base, v0, true, useFresh); n != 0 {
					b.Fatalf("%d roots written", n)
				}
			}
			reportCPU(b, cpuTime()-start)
		})
	}
	// 1% of the roots change each time, the others are fresh.
	b.Run("changed1pct", func(b *testing.B) {
		base := b.TempDir()
		buildRoots(b, base, v0, true, false)
		round := 0
		var cpu time.Duration
		for b.Loop() {
			round++
			ver := func(i int) int {
				if i%100 == round%100 {
					return round
				}
				return 0
			}
			// Bring the previous round's roots back to version 0,
			// unmeasured.
			b.StopTimer()
			buildRoots(b, base, v0, true, true)
			b.StartTimer()
			start := cpuTime()
			if n := buildRoots(b, base, ver, false, true); n != benchRoots/100 {
				b.Fatalf("%d roots written", n)
			}
			cpu += cpuTime() - start
		}
		reportCPU(b, cpu)
	})
}
