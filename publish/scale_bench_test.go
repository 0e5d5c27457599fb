//go:build unix

package publish

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/discgen/discgen/tools/hostgen"
)

// The scale benchmark runs the discgen binary, as a host would, over a
// generated tree of n tenants shaped like /home/*/public_html/autodisc.yaml,
// each public_html also holding some of the user's own files. In one run it
// measures, each as a separate process with its peak RSS:
//
//	full      the first build of every tenant (and the site)
//	tar-x     tar -x of the very tree the full build produced: the floor
//	tar-sync  the sync that makes tar's files durable, which a build's
//	          flushes do for its own (reported beside, not in the floor)
//	nochange  a second build with nothing changed (three in each run)
//	changed   a build after 1% of the manifests changed: a content
//	          edit, each one's description
//	tenant    discgen build --tenant FILE, one tenant (median of five)
//	tenant-edited  the same, just after that tenant's description was
//	          edited, as a control panel runs it on a save
//	heavy     the first build of another tree of n tenants, of which
//	          DISCGEN_SCALE_HEAVY (default 300) are heavy: 3.5 MB manifests
//	          of 120,000 rules, within the size and node limits
//
// and reports each time and its ratio to tar-x. Every timed run starts
// with nothing dirty in the page cache (a sync, not timed, before it), so
// that a build's flushes write its own files and not what the generator
// or tar left for the kernel to write back. It is opt-in, since a
// large n takes minutes and gigabytes of disk:
//
//	DISCGEN_SCALE=10000,100000 go test ./publish -run '^$' -bench Scale -benchtime 1x -timeout 2h
//
// DISCGEN_SCALE_HEAVY=0 leaves out the heavy case. The tenants are
// realisticSite's, as users write them (presets, usage preferences,
// named agents, an icon, two feeds, an x- file, varied sizes, one in 20
// heavier); DISCGEN_SCALE_MIX=uniform gives scaleSite's one small shape,
// the tenants of the runs recorded before. The trees go under TMPDIR: a
// disk's file system, not a tmpfs, for figures a host would see.
//
// Each step reports its wall time, its CPU time (user and system) and
// peak RSS; the ratios are to tar -x's wall and CPU time.
//
// DISCGEN_SCALE_REPS (default 3) sets how many times each is measured, or
// NxREPS for one size (100000x1); medians are reported, and the peak RSS
// of all repetitions.
func BenchmarkScale(b *testing.B) {
	spec := os.Getenv("DISCGEN_SCALE")
	if spec == "" {
		b.Skip("set DISCGEN_SCALE=10000,100000 to run the scale benchmark")
	}
	reps := 3
	if r, err := strconv.Atoi(os.Getenv("DISCGEN_SCALE_REPS")); err == nil && r > 0 {
		reps = r
	}
	// Every tree stays until the whole benchmark ends: on ext4 without a
	// journal the inode allocator skips inodes freed in the last minute
	// (five, while their inode table block is dirty), so removing one
	// size's tree would slow the next one's runs, the floor's included.
	work := b.TempDir()
	bin := filepath.Join(work, "discgen")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/discgen").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	for _, f := range strings.Split(spec, ",") {
		size, times, _ := strings.Cut(strings.TrimSpace(f), "x")
		n, err := strconv.Atoi(size)
		if err != nil || n < 100 {
			b.Fatalf("DISCGEN_SCALE: %q is not a number of tenants (at least 100)", f)
		}
		r := reps
		if times != "" {
			if r, err = strconv.Atoi(times); err != nil || r < 1 {
				b.Fatalf("DISCGEN_SCALE: %q: want N or NxREPS", f)
			}
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				scaleRun(b, work, bin, n, r)
			}
		})
	}
}

// measurement is one process run.
type measurement struct {
	wall   time.Duration
	cpu    time.Duration // user and system
	maxRSS int64         // bytes
	out    string        // the end of its standard output
}

// runMeasured runs a command and returns its wall time and peak RSS.
func runMeasured(b testing.TB, dir string, name string, args ...string) measurement {
	b.Helper()
	syscall.Sync()
	// GNU time, when there is one, forks the command from its own small
	// process and reports the command's own peak RSS: the Go runtime
	// starts a process with clone(CLONE_VM) and exec, and Linux keeps the
	// parent's high-water mark across the exec, so ru_maxrss would be at
	// least this benchmark's own size.
	rssFile := ""
	if _, err := os.Stat(gnuTime); err == nil {
		rssFile = filepath.Join(b.TempDir(), "rss")
		args = append([]string{"-f", "%M", "-o", rssFile, name}, args...)
		name = gnuTime
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	// Standard output goes to a file, as it would to /dev/null: no pipe
	// for the process to wait on.
	stdout, err := os.CreateTemp(b.TempDir(), "stdout")
	if err != nil {
		b.Fatal(err)
	}
	defer stdout.Close()
	cmd.Stdout = stdout
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if err != nil {
		b.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	rss := int64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) * 1024
	if rssFile != "" {
		data, _ := os.ReadFile(rssFile)
		f := strings.Fields(string(data))
		if len(f) == 0 {
			b.Fatalf("%s wrote no peak RSS", gnuTime)
		}
		kb, err := strconv.ParseInt(f[len(f)-1], 10, 64)
		if err != nil {
			b.Fatalf("%s: the peak RSS: %v", gnuTime, err)
		}
		rss = kb * 1024
	}
	out := make([]byte, 4096)
	size, _ := stdout.Seek(0, io.SeekEnd)
	k, _ := stdout.ReadAt(out, max(0, size-int64(len(out))))
	return measurement{wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), rss, string(out[:k])}
}

// gnuTime is GNU time, which runMeasured runs commands under for their
// peak RSS.
const gnuTime = "/usr/bin/time"

func median(ms []measurement) measurement {
	slices.SortFunc(ms, func(a, b measurement) int { return int(a.wall - b.wall) })
	peak := int64(0)
	for _, m := range ms {
		peak = max(peak, m.maxRSS)
	}
	return measurement{ms[len(ms)/2].wall, ms[len(ms)/2].cpu, peak, ""}
}

// scaleRun measures one size.
func scaleRun(b *testing.B, work, bin string, n, reps int) {
	var full, tarx, tarSync, nochange, changed, one, edited []measurement
	for rep := range reps {
		root, err := os.MkdirTemp(work, fmt.Sprintf("n%d-", n))
		if err != nil {
			b.Fatal(err)
		}
		site := filepath.Join(root, "site")
		if err := os.MkdirAll(site, 0o755); err != nil {
			b.Fatal(err)
		}
		scaleHost(b, site, n)
		build := []string{"build", "-f", "site.yaml", "-o", "public", "--now", "2026-11-01"}
		full = append(full, runMeasured(b, site, bin, build...))
		// The floor: the tree the build produced, extracted by tar.
		tarball := filepath.Join(root, "tree.tar")
		if out, err := exec.Command("tar", "-C", site, "-cf", tarball, "--exclude", ".discgen", ".").CombinedOutput(); err != nil {
			b.Fatalf("tar -c: %v\n%s", err, out)
		}
		dest := filepath.Join(root, "extract")
		if err := os.Mkdir(dest, 0o755); err != nil {
			b.Fatal(err)
		}
		tarx = append(tarx, runMeasured(b, dest, "tar", "-xf", tarball))
		start := time.Now()
		syscall.Sync()
		tarSync = append(tarSync, measurement{wall: time.Since(start)})
		// Three no-change builds; the extracted copy is removed at the
		// end, so that its removal does not run under them.
		for range 3 {
			nochange = append(nochange, runMeasured(b, site, bin, build...))
		}
		for i := 0; i < n; i += 100 {
			m := filepath.Join(site, "users", fmt.Sprintf("u%07d", i), "public_html", "autodisc.yaml")
			data, err := os.ReadFile(m)
			if err != nil {
				b.Fatal(err)
			}
			// A content edit: the description, which description.txt
			// and the tenant's other outputs carry.
			data = editDescription(b, m, data, fmt.Sprintf("changed in run %d", rep))
			if err := os.WriteFile(m, data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		c := runMeasured(b, site, bin, build...)
		// The edits are seen: every edited tenant built again, the
		// others unchanged.
		wantBuilt(b, c, (n+99)/100, "the 1% build")
		changed = append(changed, c)
		// What a hosting panel runs when one user saves: --tenant, with
		// every other tenant still on disk.
		for i := range 5 {
			m := filepath.Join("users", fmt.Sprintf("u%07d", (i*7919)%n), "public_html", "autodisc.yaml")
			one = append(one, runMeasured(b, site, bin, append(build, "--tenant", m)...))
			// The same after the user's edit, which is when a panel
			// runs it: the manifest read, checked, rendered and written.
			data, err := os.ReadFile(filepath.Join(site, m))
			if err != nil {
				b.Fatal(err)
			}
			data = editDescription(b, m, data, fmt.Sprintf("saved in run %d.%d", rep, i))
			if err := os.WriteFile(filepath.Join(site, m), data, 0o644); err != nil {
				b.Fatal(err)
			}
			e := runMeasured(b, site, bin, append(build, "--tenant", m)...)
			wantBuilt(b, e, 1, "--tenant after an edit")
			edited = append(edited, e)
		}
	}
	var heavy []measurement
	if h := scaleHeavy(b, n); h > 0 {
		for range reps {
			root, err := os.MkdirTemp(work, fmt.Sprintf("heavy%d-", n))
			if err != nil {
				b.Fatal(err)
			}
			scaleHost(b, root, n)
			// Heavy tenants of the same shape in either mix: the
			// figures compare with the earlier runs'.
			for i := range h {
				m := filepath.Join(root, "users", fmt.Sprintf("u%07d", i*n/h), "public_html", "autodisc.yaml")
				if err := os.WriteFile(m, heavyTenant(fmt.Sprintf("u%07d", i*n/h)), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			heavy = append(heavy, runMeasured(b, root, bin, "build", "-f", "site.yaml", "-o", "public", "--now", "2026-11-01"))
		}
	}
	f, t, nc, ch := median(full), median(tarx), median(nochange), median(changed)
	b.ReportMetric(f.wall.Seconds(), "full-s")
	b.ReportMetric(f.cpu.Seconds(), "full-cpu-s")
	b.ReportMetric(t.wall.Seconds(), "tar-x-s")
	b.ReportMetric(median(tarSync).wall.Seconds(), "tar-sync-s")
	b.ReportMetric(nc.wall.Seconds(), "nochange-s")
	b.ReportMetric(ch.wall.Seconds(), "changed1%-s")
	b.ReportMetric(t.cpu.Seconds(), "tar-x-cpu-s")
	b.ReportMetric(nc.cpu.Seconds(), "nochange-cpu-s")
	b.ReportMetric(ch.cpu.Seconds(), "changed-cpu-s")
	b.ReportMetric(f.wall.Seconds()/t.wall.Seconds(), "full/tar-x")
	if t.cpu > 0 {
		b.ReportMetric(f.cpu.Seconds()/t.cpu.Seconds(), "full-cpu/tar-x-cpu")
		b.ReportMetric(nc.cpu.Seconds()/t.cpu.Seconds(), "nochange-cpu/tar-x-cpu")
		b.ReportMetric(ch.cpu.Seconds()/t.cpu.Seconds(), "changed-cpu/tar-x-cpu")
	}
	b.ReportMetric(nc.wall.Seconds()/t.wall.Seconds(), "nochange/tar-x")
	b.ReportMetric(ch.wall.Seconds()/t.wall.Seconds(), "changed/tar-x")
	b.ReportMetric(float64(median(one).wall.Microseconds())/1000, "tenant-ms")
	e := median(edited)
	b.ReportMetric(float64(e.wall.Microseconds())/1000, "tenant-edited-ms")
	b.ReportMetric(float64(e.cpu.Microseconds())/1000, "tenant-edited-cpu-ms")
	b.ReportMetric(float64(e.maxRSS)/(1<<20), "tenant-edited-MB")
	b.ReportMetric(float64(f.maxRSS)/(1<<20), "full-MB")
	b.ReportMetric(float64(t.maxRSS)/(1<<20), "tar-x-MB")
	b.ReportMetric(float64(nc.maxRSS)/(1<<20), "nochange-MB")
	b.ReportMetric(float64(ch.maxRSS)/(1<<20), "changed-MB")
	if len(heavy) > 0 {
		h := median(heavy)
		b.ReportMetric(h.wall.Seconds(), "heavy-s")
		b.ReportMetric(h.cpu.Seconds(), "heavy-cpu-s")
		b.ReportMetric(float64(h.maxRSS)/(1<<20), "heavy-MB")
	}
}

// scaleHeavy is how many of n tenants the heavy case makes heavy.
func scaleHeavy(b *testing.B, n int) int {
	h := 300
	if s := os.Getenv("DISCGEN_SCALE_HEAVY"); s != "" {
		var err error
		if h, err = strconv.Atoi(s); err != nil || h < 0 {
			b.Fatalf("DISCGEN_SCALE_HEAVY=%q: want a number of tenants", s)
		}
	}
	return min(h, n)
}

// scaleHost writes n tenants of the mix DISCGEN_SCALE_MIX names, with the
// users' own files: hostgen.Host.
func scaleHost(b testing.TB, dir string, n int) {
	b.Helper()
	hostgen.Host(b, dir, n, scaleMix(b))
}

// wantBuilt fails b unless the build m reported built tenants built.
func wantBuilt(b testing.TB, m measurement, built int, what string) {
	b.Helper()
	n := strconv.Itoa(built)
	for i := len(n) - 3; i > 0; i -= 3 {
		n = n[:i] + "," + n[i:]
	}
	if !strings.Contains(m.out, "tenants: "+n+" built,") {
		b.Fatalf("%s: want %d tenants built, the build said:\n%s", what, built, m.out)
	}
}

// editDescription changes the description of the tenant manifest data
// (read from m), as a user's edit would: its text, not a comment.
func editDescription(b testing.TB, m string, data []byte, what string) []byte {
	b.Helper()
	s := string(data)
	if !strings.Contains(s, "The pages") {
		b.Fatalf("%s: no description to edit", m)
	}
	return []byte(strings.Replace(s, "The pages", "The pages ("+what+")", 1))
}
