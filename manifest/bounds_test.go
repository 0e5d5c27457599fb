package manifest_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/internal/gcpolicy"
	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/validate"
	"go.yaml.in/yaml/v3"
)

// The bound on one manifest: loading, validating and rendering any
// manifest under manifest.MaxBytes keeps at most maxLive bytes live.
const maxLive = 64 << 20

// maxCPU bounds the CPU time of one manifest's run, in a child that
// collects garbage far more often than a build (GOGC=5): a build takes
// a fraction of it. It is CPU time, not wall time, so that a loaded
// machine does not fail the test.
const maxCPU = 5 * time.Second

// maxRSS bounds the resident memory of a process that runs one manifest
// with discgen's collector policy (internal/gcpolicy): the test binary,
// the manifest's bytes and what loading, validating and rendering it
// hold and leave for the collector.
const maxRSSBytes = 128 << 20

// shape is a hostile (or merely huge) manifest, made at a size n.
type shape struct {
	name   string
	tenant bool
	n      int // the size the memory bound is checked at
	make   func(n int) []byte
	// small is a size at which the work is compared with twice as much
	// (0: the shape does not grow with n, or is refused at any size).
	small int
}

const siteHead = "version: 1\nsite: {url: \"https://example.org/\"}\n"
const tenantHead = "version: 1\npath: /~a/\n"

func rep(s string, n int) string { return strings.Repeat(s, n) }

// letters writes i in base 26, in letters: distinct product tokens.
func letters(i int) string {
	s := ""
	for i++; i > 0; i /= 26 {
		i--
		s = string(rune('a'+i%26)) + s
	}
	return s
}

var shapes = []shape{
	// One long explicit key over a long list: every value's path used to
	// repeat the key.
	{name: "long key over a list", tenant: true, n: 20_000, small: 5_000, make: func(n int) []byte {
		return []byte(tenantHead + "? " + rep("k", 40_000) + "\n: [" + rep("a,", n) + "]\n")
	}},
	{name: "long key, 2.5 MB", tenant: true, n: 1_200_000, make: func(n int) []byte {
		return []byte(tenantHead + "? " + rep("k", 40_000) + "\n: [" + rep("a,", n) + "]\n")
	}},
	{name: "long file key over a list", tenant: true, n: 20_000, small: 5_000, make: func(n int) []byte {
		return []byte(tenantHead + "files:\n  ? x-" + rep("k", 250) + "\n  : [" + rep("a,", n) + "]\n")
	}},
	{name: "long keys nested deep", tenant: true, n: 200_000, small: 20_000, make: func(n int) []byte {
		var b strings.Builder
		b.WriteString(tenantHead)
		for i := range 60 {
			fmt.Fprintf(&b, "%s%s:\n", rep(" ", i), rep("k", 250))
		}
		b.WriteString(rep(" ", 60) + "- [" + rep("a,", n) + "]\n")
		return []byte(b.String())
	}},
	{name: "long scalar", tenant: true, n: manifest.MaxBytes - 100, make: func(n int) []byte {
		return []byte(tenantHead + "description: " + rep("a", n-len(tenantHead)-20) + "\n")
	}},
	{name: "long agent name", tenant: false, n: manifest.MaxBytes - 200, make: func(n int) []byte {
		return []byte(siteHead + "agents:\n  - names: [\"" + rep("a b", (n-len(siteHead)-40)/3) + "\"]\n")
	}},
	{name: "deep nesting", tenant: true, n: manifest.MaxDepth, make: func(n int) []byte {
		return []byte(tenantHead + "files: {x-a: " + rep("[", n) + rep("]", n) + "}\n")
	}},
	{name: "nesting past the limit", tenant: true, n: 100_000, make: func(n int) []byte {
		return []byte(tenantHead + "files: {x-a: " + rep("[", n) + rep("]", n) + "}\n")
	}},
	{name: "alias fan-out within the budget", tenant: false, n: 240, small: 60, make: func(n int) []byte {
		return []byte(siteHead + "agents:\n  - names: [a]\n    disallow: &d [" + rep("/a,", 1000) + "]\n" +
			rep("  - {names: [b], disallow: *d}\n", n))
	}},
	{name: "alias bomb", tenant: false, n: 9, make: func(n int) []byte {
		var b strings.Builder
		b.WriteString(siteHead + "a0: &a0 [x, x, x, x, x, x, x, x, x]\n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
		}
		return []byte(b.String())
	}},
	{name: "alias of a long scalar", tenant: false, n: 1_000_000, make: func(n int) []byte {
		return []byte(siteHead + "x-long: &s \"" + rep("a b", 1<<20/3) + "\"\nagents:\n  - names: [" + rep("*s,", n) + "]\n")
	}},
	{name: "many list items", tenant: false, n: 240_000, small: 30_000, make: func(n int) []byte {
		return []byte(siteHead + "icons: [" + rep("/a,", n) + "]\n")
	}},
	{name: "many agent names", tenant: true, n: 240_000, small: 30_000, make: func(n int) []byte {
		return []byte(tenantHead + "agents:\n  - names: [" + rep("a,", n) + "]\n    disallow: [/]\n")
	}},
	{name: "many block items", tenant: true, n: 200_000, small: 30_000, make: func(n int) []byte {
		return []byte(tenantHead + "files:\n  x-a:\n" + rep("    - aaaaaaaaaaaa\n", n))
	}},
	{name: "syntax error at the end of a located document", tenant: false, n: 18_000, make: func(n int) []byte {
		return []byte(siteHead + "icons:\n" + rep("  - /a\n", n) + " bad: [\n")
	}},
	{name: "syntax error at the end of a large document", tenant: false, n: 200_000, make: func(n int) []byte {
		return []byte(siteHead + "icons:\n" + rep("  - /a\n", n) + " bad: [\n")
	}},
	{name: "many errors", tenant: false, n: 240_000, small: 30_000, make: func(n int) []byte {
		return []byte(siteHead + "agents:\n  - names: [" + rep("a b,", n) + "]\n")
	}},
	{name: "many schema errors", tenant: false, n: 240_000, small: 30_000, make: func(n int) []byte {
		return []byte(siteHead + "icons: [" + rep("1,", n) + "]\n")
	}},
	{name: "many duplicate keys", tenant: false, n: 120_000, small: 15_000, make: func(n int) []byte {
		return []byte(siteHead + "files: {" + rep("x-a: b,", n) + "}\n")
	}},
	{name: "many environments", tenant: false, n: 64, small: 16, make: func(n int) []byte {
		var b strings.Builder
		b.WriteString(siteHead + "agents:\n  - names: [a]\n    disallow: [" + rep("/a,", 100_000) + "]\nenvironments:\n")
		for i := range n {
			fmt.Fprintf(&b, "  e%d: {icons: [/x], agents: [{names: [b], disallow: [/b]}]}\n", i)
		}
		return []byte(b.String())
	}},
	{name: "deep delegation path", tenant: false, n: 4000, make: func(n int) []byte {
		return []byte(siteHead + "delegations:\n  - path: /" + rep("a/", n) + "\n    inline: {description: x}\n")
	}},
	{name: "deep inline delegations", tenant: true, n: manifest.MaxDepth, make: func(n int) []byte {
		var b strings.Builder
		b.WriteString(tenantHead + "delegations: ")
		for range n {
			b.WriteString("[{path: d/, inline: {description: x, delegations: ")
		}
		b.WriteString("[]" + rep("}}]", n) + "\n")
		return []byte(b.String())
	}},
	{name: "many delegations", tenant: false, n: validate.MaxDelegations, small: 2000, make: func(n int) []byte {
		var b strings.Builder
		b.WriteString(siteHead + "delegations:\n")
		for i := range n {
			fmt.Fprintf(&b, "  - {path: /d%d/, inline: {description: x}}\n", i)
		}
		for i := range validate.MaxWildcardDelegations {
			fmt.Fprintf(&b, "  - {path: /w%d*/, tenants: none/*.yaml}\n", i)
		}
		return []byte(b.String())
	}},
	{name: "expectations over wildcard rules", tenant: false, n: 2_000, small: 500, make: func(n int) []byte {
		return []byte(siteHead + "agents:\n  - names: [a]\n    disallow: [" + rep("/*a*a*a*a*b,", 100) + "]\n" +
			"expect:\n  - agent: a\n    allowed: [" + rep("/"+rep("a", 200)+",", n) + "]\n")
	}},
	// Names part of one another were compared pair by pair: 40,000 names
	// in one group took 97 s, 20,000 groups named bot{i} 40.8 s.
	{name: "many distinct agent names", tenant: true, n: validate.MaxAgentNames, small: 1000, make: func(n int) []byte {
		var b strings.Builder
		b.WriteString(tenantHead + "agents:\n  - names: [")
		for i := range n {
			b.WriteString("b" + letters(i) + ",")
		}
		b.WriteString("]\n    disallow: [/]\n")
		return []byte(b.String())
	}},
	{name: "groups named bot{i}", tenant: true, n: validate.MaxAgentNames, small: 1000, make: func(n int) []byte {
		var b strings.Builder
		b.WriteString(tenantHead + "agents:\n")
		for i := range n {
			fmt.Fprintf(&b, "  - {names: [bot%s], disallow: [/%s]}\n", letters(i), letters(i))
		}
		return []byte(b.String())
	}},
	{name: "names past the limit", tenant: true, n: 40_000, make: func(n int) []byte {
		var b strings.Builder
		b.WriteString(tenantHead + "agents:\n  - names: [")
		for i := range n {
			fmt.Fprintf(&b, "b%d,", i)
		}
		b.WriteString("]\n    disallow: [/]\n")
		return []byte(b.String())
	}},
	{name: "names part of one another", tenant: true, n: 1_000, make: func(n int) []byte {
		var b strings.Builder
		b.WriteString(tenantHead + "agents:\n")
		for i := range n {
			fmt.Fprintf(&b, "  - {names: [%s], disallow: [/%d]}\n", rep("a", i+1), i)
		}
		return []byte(b.String())
	}},
	// Rules times agents: a few long rules for a few hundred agents would
	// write a robots.txt of hundreds of megabytes.
	{name: "long rules for many agents", tenant: true, n: 900, make: func(n int) []byte {
		var b strings.Builder
		b.WriteString(tenantHead + "agents:\n  - names: [")
		for i := range 200 {
			b.WriteString("b" + letters(i) + ",")
		}
		b.WriteString("]\n    disallow:\n")
		for i := range n {
			fmt.Fprintf(&b, "      - /%s%d\n", rep("a", validate.MaxValueBytes-10), i)
		}
		return []byte(b.String())
	}},
	{name: "many rules for many agents", tenant: true, n: 1_000, make: func(n int) []byte {
		var b strings.Builder
		b.WriteString(tenantHead + "agents:\n  - names: [")
		for i := range 199 {
			b.WriteString("b" + letters(i) + ",")
		}
		b.WriteString("]\n    disallow: [")
		for i := range n {
			fmt.Fprintf(&b, "/%s,", letters(i))
		}
		b.WriteString("]\n")
		return []byte(b.String())
	}},
	// A "#" that no blank precedes is part of a plain scalar: the node
	// count before parsing read it as a comment (345 MB at 4 MiB).
	{name: "scalars ending in #", tenant: true, n: manifest.MaxBytes - 100, make: func(n int) []byte {
		return []byte(tenantHead + "x: {" + rep("a#: ,", (n-len(tenantHead)-10)/5) + "}\n")
	}},
	{name: "sequence of scalars ending in #", tenant: false, n: manifest.MaxBytes - 100, make: func(n int) []byte {
		return []byte(siteHead + "k: [" + rep("a#, ", (n-len(siteHead)-10)/4) + "]\n")
	}},
	{name: "long wildcard rule and URL", tenant: false, n: 1_000_000, make: func(n int) []byte {
		return []byte(siteHead + "agents:\n  - names: [a]\n    disallow: [/" + rep("*a", n/2) + "b]\n" +
			"expect:\n  - agent: a\n    allowed: [/" + rep("a", n) + "]\n")
	}},
}

// run loads, validates and renders one manifest as a build does.
func run(data []byte, tenant bool) diag.List {
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	if tenant {
		doc, errs := manifest.LoadTenant("t.yaml", data)
		if doc == nil {
			return errs
		}
		within, _ := pathspace.Parse(pathspace.Root(), "/~*/")
		m, list := validate.Tenant(doc, within, validate.AllFiles(), validate.Options{Now: now})
		errs.Append(list)
		if errs.HasErrors() || m == nil {
			return errs
		}
		site, _ := url.Parse("https://example.org/")
		_, list = generate.Tenant(m, site)
		errs.Append(list)
		return errs
	}
	doc, errs := manifest.LoadSite("s.yaml", data, "")
	if doc == nil {
		return errs
	}
	m, list := validate.Site(doc, validate.Options{Now: now})
	errs.Append(list)
	if errs.HasErrors() || m == nil {
		return errs
	}
	_, list = generate.Site(m, generate.Options{Now: now, Dir: os.TempDir()})
	errs.Append(list)
	return errs
}

// cost is what one run of a shape took, as the child process reports it.
type cost struct {
	Bytes      int
	Live       uint64 // the most heap found live by a collection
	HeapSys    uint64 // growth of the heap's reservation: its high-water mark
	TotalAlloc uint64
	Mallocs    uint64
	Wall       time.Duration
	CPU        time.Duration // user and system, the collector's work included
	RSS        uint64        // the most resident memory, in the "rss" mode
	Diags      int
}

// TestMain runs one shape in a process of its own when TestBounds started
// it (DISCGEN_BOUNDS_SHAPE set), and the tests otherwise.
func TestMain(m *testing.M) {
	if name := os.Getenv("DISCGEN_BOUNDS_SHAPE"); name != "" {
		os.Exit(boundsChild(name))
	}
	os.Exit(m.Run())
}

// boundsChild runs the shape name, prints its cost as a COST line, and
// returns the process's exit status: 1, with the reasons on stderr, when
// a diagnostic is out of shape or the shape is unknown.
func boundsChild(name string) int {
	n, _ := strconv.Atoi(os.Getenv("DISCGEN_BOUNDS_N"))
	for _, s := range shapes {
		if s.name != name {
			continue
		}
		data := s.make(n)
		if os.Getenv("DISCGEN_BOUNDS_MODE") == "rss" {
			// The collector as discgen runs it: the most resident
			// memory of the whole run is what an operator sees.
			gcpolicy.Tune()
			runtime.GC()
			start := time.Now()
			list := run(data, s.tenant)
			out, _ := json.Marshal(cost{Bytes: len(data), RSS: maxRSS(), Wall: time.Since(start), Diags: len(list)})
			fmt.Printf("COST %s\n", out)
			return 0
		}
		// Collect often, and after each collection note the heap it
		// found live: the most of these is the most memory live at once.
		debug.SetGCPercent(5)
		runtime.GC()
		peak := watchLive()
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		start, cpu0 := time.Now(), cpuTime()
		list := run(data, s.tenant)
		wall, cpu := time.Since(start), cpuTime()-cpu0
		runtime.GC()
		live := peak()
		runtime.ReadMemStats(&b)
		grew := uint64(0)
		if b.HeapSys > a.HeapSys {
			grew = b.HeapSys - a.HeapSys
		}
		out, _ := json.Marshal(cost{Bytes: len(data), Live: live, HeapSys: grew, TotalAlloc: b.TotalAlloc - a.TotalAlloc,
			Mallocs: b.Mallocs - a.Mallocs, Wall: wall, CPU: cpu, Diags: len(list)})
		fmt.Printf("COST %s\n", out)
		status := 0
		for _, d := range list {
			if d.File != "s.yaml" && d.File != "t.yaml" || d.Message == "" {
				fmt.Fprintf(os.Stderr, "diagnostic out of shape: %s\n", d)
				status = 1
			}
		}
		if len(list) > validate.MaxDiagnostics*3 {
			fmt.Fprintf(os.Stderr, "%d diagnostics\n", len(list))
			status = 1
		}
		return status
	}
	fmt.Fprintf(os.Stderr, "no shape %q\n", name)
	return 1
}

// watchLive notes, after every collection from now on, the heap the
// collection found live. The function it returns stops and gives the most.
func watchLive() func() uint64 {
	var mu sync.Mutex
	var most uint64
	stop := false
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		x := new([64]byte)
		runtime.SetFinalizer(x, func(*[64]byte) {
			metrics.Read(sample)
			mu.Lock()
			defer mu.Unlock()
			most = max(most, sample[0].Value.Uint64())
			if !stop {
				arm()
			}
		})
	}
	arm()
	return func() uint64 {
		mu.Lock()
		defer mu.Unlock()
		stop = true
		return most
	}
}

func measureShape(t *testing.T, s shape, n int, mode string) cost {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "GODEBUG=gcstoptheworld=1", "DISCGEN_BOUNDS_SHAPE="+s.name, "DISCGEN_BOUNDS_N="+strconv.Itoa(n), "DISCGEN_BOUNDS_MODE="+mode)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s at %d: %v\n%s", s.name, n, err, out)
	}
	for line := range strings.SplitSeq(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "COST "); ok {
			var c cost
			if err := json.Unmarshal([]byte(rest), &c); err != nil {
				t.Fatal(err)
			}
			return c
		}
	}
	t.Fatalf("%s at %d: no cost reported\n%s", s.name, n, out)
	return cost{}
}

// TestBounds builds each shape at its largest and checks, in a process of
// its own collecting often, that the most heap a collection finds live
// stays under maxLive (and the heap's high-water mark, which adds what the
// collector had not yet reclaimed and varies with the machine's load,
// under twice as much). For shapes
// that grow, it checks that twice the input costs about twice the work
// (allocations), which a quadratic cost would break.
func TestBounds(t *testing.T) {
	testenv.NeedsLong(t) // builds manifests of up to 4 MiB
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			c := measureShape(t, s, s.n, "")
			if c.Bytes > manifest.MaxBytes+1 {
				t.Fatalf("the shape is %d bytes, over the limit", c.Bytes)
			}
			t.Logf("%d bytes: at most %.1f MiB live, heap high-water %.1f MiB; allocated %.1f MiB in %d allocations, %v (%v CPU), %d diagnostics",
				c.Bytes, mib(c.Live), mib(c.HeapSys), mib(c.TotalAlloc), c.Mallocs, c.Wall.Round(time.Millisecond), c.CPU.Round(time.Millisecond), c.Diags)
			if c.CPU > maxCPU {
				t.Errorf("%v of CPU time; the bound is %v", c.CPU.Round(time.Millisecond), maxCPU)
			}
			if r := measureShape(t, s, s.n, "rss"); r.RSS > maxRSSBytes {
				t.Errorf("%.1f MiB resident with discgen's collector policy; the bound is %d MiB", mib(r.RSS), maxRSSBytes>>20)
			} else {
				t.Logf("%.1f MiB resident with discgen's collector policy", mib(r.RSS))
			}
			if c.Live > maxLive {
				t.Errorf("%.1f MiB live at once; the bound is %d MiB", mib(c.Live), maxLive>>20)
			}
			if c.HeapSys > 2*maxLive {
				t.Errorf("the heap grew by %.1f MiB", mib(c.HeapSys))
			}
			if s.small == 0 {
				return
			}
			one, two := measureShape(t, s, s.small, ""), measureShape(t, s, 2*s.small, "")
			ratio := float64(two.Mallocs) / float64(max(one.Mallocs, 1))
			bytes := float64(two.TotalAlloc) / float64(max(one.TotalAlloc, 1))
			t.Logf("n=%d: %d allocations, %.1f MiB; 2n: %d allocations, %.1f MiB (x%.2f, x%.2f)",
				s.small, one.Mallocs, mib(one.TotalAlloc), two.Mallocs, mib(two.TotalAlloc), ratio, bytes)
			if ratio > 3 || bytes > 3 {
				t.Errorf("twice the input costs x%.2f the allocations and x%.2f the bytes: not linear", ratio, bytes)
			}
		})
	}
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }

// BenchmarkBounds times loading, validating and rendering each shape at
// its largest, beside the floor: the YAML parser alone reading the same
// bytes into nodes (BenchmarkBounds/NAME/parse).
func BenchmarkBounds(b *testing.B) {
	for _, s := range shapes {
		data := s.make(s.n)
		b.Run(strings.ReplaceAll(s.name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				run(data, s.tenant)
			}
		})
		refused := false
		for _, d := range run(data, s.tenant) {
			refused = refused || strings.Contains(d.Message, "refusing it")
		}
		if refused {
			continue // the parser alone would cost more than refusing
		}
		b.Run(strings.ReplaceAll(s.name, " ", "_")+"/parse", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var n yaml.Node
				_ = yaml.Unmarshal(data, &n)
			}
		})
	}
}
