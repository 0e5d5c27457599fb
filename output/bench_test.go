package output

import (
	"fmt"
	"path/filepath"
	"testing"

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

func benchmarkBuild(b *testing.B, n int, rebuild, noSync bool) {
	t := benchTree(n)
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		opt := Options{StateDir: filepath.Join(dir, "state"), NoSync: noSync}
		root := filepath.Join(dir, "public")
		if rebuild {
			if _, _, err := Write(root, t, opt); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		c, res, err := Write(root, t, opt)
		if err != nil {
			b.Fatal(err)
		}
		if rebuild && !c.Empty() || !rebuild && res.Added != n {
			b.Fatalf("unexpected result %+v", res)
		}
	}
}

func BenchmarkFirstBuild10k(b *testing.B)       { benchmarkBuild(b, 10000, false, false) }
func BenchmarkFirstBuild10kNoSync(b *testing.B) { benchmarkBuild(b, 10000, false, true) }
func BenchmarkRebuild10k(b *testing.B)          { benchmarkBuild(b, 10000, true, false) }
