package publish

import (
	"cmp"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/hostlimits"
)

var unlimited = hostlimits.Limits{CPUs: 2, TasksInUse: -1, OwnThreads: -1, OpenFiles: 1 << 20}

func TestFitDefaults(t *testing.T) {
	s, err := fit(Options{Mode: Write}, unlimited, math.MaxInt64, 2)
	if err != nil || s.jobs != 64 || s.appliers != appliers || s.batch != applyBatch || s.budget != defaultBudget || s.procs != 0 {
		t.Errorf("no limits: %+v %v, want 64 workers, %d appliers, a budget of 256 MiB", s, err, appliers)
	}
	one := unlimited
	one.CPUs = 1
	if s, _ := fit(Options{}, one, math.MaxInt64, 1); s.jobs != perCPU {
		t.Errorf("one CPU: %d workers, want %d", s.jobs, perCPU)
	}
	one.CPUs, one.CPUQuota = 8, 0.5
	if s, _ := fit(Options{}, one, math.MaxInt64, 1); s.jobs != perCPU {
		t.Errorf("half a CPU of quota: %d workers, want %d", s.jobs, perCPU)
	}
	// The open-file limit: 128 for the walk and the state, a batch of
	// 64 plans at 8 each, 8 a worker.
	few := unlimited
	few.OpenFiles = 1024
	if s, _ := fit(Options{}, few, math.MaxInt64, 2); s.jobs != (1024-128-512)/8 {
		t.Errorf("1024 open files: %d workers, want %d", s.jobs, (1024-128-512)/8)
	}
	// --jobs stays an override.
	if s, _ := fit(Options{Jobs: 200}, one, math.MaxInt64, 1); s.jobs != 200 {
		t.Errorf("--jobs 200: %d workers", s.jobs)
	}
}

func TestFitMemory(t *testing.T) {
	// The Go runtime's soft limit halves the budget.
	s, err := fit(Options{}, unlimited, 192<<20, 2)
	if err != nil || s.budget != 96<<20 || s.jobs != 48 {
		t.Errorf("GOMEMLIMIT=192MiB: %+v %v, want a budget of 96 MiB and 48 workers", s, err)
	}
	// 1 GiB of address space, 700 MiB of it the runtime's.
	as := unlimited
	as.AddressSpace, as.AddressInUse = 1<<30, 700<<20
	s, err = fit(Options{}, as, math.MaxInt64, 2)
	if err != nil || s.budget != 81<<20 {
		t.Errorf("--as=1GiB: %+v %v, want a budget of 81 MiB", s, err)
	}
	as.AddressSpace = 750 << 20
	_, err = fit(Options{}, as, math.MaxInt64, 2)
	var le *LimitError
	if !errors.As(err, &le) || !strings.Contains(le.Error(), "RLIMIT_AS") {
		t.Errorf("--as=750MiB: %v, want a refusal naming RLIMIT_AS", err)
	}
	cg := unlimited
	cg.Memory, cg.MemoryUsed = 64<<20, 20<<20
	if _, err := fit(Options{}, cg, math.MaxInt64, 2); err == nil || !strings.Contains(err.Error(), "memory.max") {
		t.Errorf("memory.max of 64 MiB: %v, want a refusal naming memory.max", err)
	}
}

func TestFitThreads(t *testing.T) {
	l := unlimited
	l.Tasks, l.TasksInUse, l.OwnThreads = 20, 5, 5
	s, err := fit(Options{Mode: Write}, l, math.MaxInt64, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Each root of a batch applied at once writes on 8 goroutines.
	if n := threadsOwn + threadsWalk + 2 + s.jobs + s.appliers*min(s.batch, 4)*8; n > 20 || s.jobs < 4 || s.appliers != 1 || s.batch != 1 {
		t.Errorf("20 tasks: %+v needs %d threads", s, n)
	}
	// The user's other processes count.
	l.TasksInUse = 7
	s, err = fit(Options{Mode: Write}, l, math.MaxInt64, 2)
	if err != nil || s.jobs != 3 || s.procs != 0 {
		t.Errorf("20 tasks, 2 of them others': %+v %v, want 3 workers", s, err)
	}
	l.TasksInUse = 10
	s, err = fit(Options{Mode: Write, FitProcs: true}, l, math.MaxInt64, 2)
	if err != nil || s.jobs != 1 || s.procs != 1 {
		t.Errorf("20 tasks, 5 of them others': %+v %v, want 1 worker on one P", s, err)
	}
	l.TasksInUse = 11
	_, err = fit(Options{Mode: Write, FitProcs: true}, l, math.MaxInt64, 2)
	var le *LimitError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "RLIMIT_NPROC") {
		t.Errorf("20 tasks, 6 of them others': %v, want a refusal naming RLIMIT_NPROC", err)
	}
	// Whatever the room, the threads counted fit in it, the writers of
	// every root applied at once included.
	for room := 15; room <= 400; room++ {
		l.Tasks, l.TasksInUse = uint64(room), 5
		s, err := fit(Options{Mode: Write, FitProcs: true}, l, math.MaxInt64, 2)
		procs := cmp.Or(s.procs, 2)
		n := threadsOwn + threadsWalk + procs + s.jobs + s.appliers*min(s.batch, 4)*8
		if err != nil || n > room || s.batch < 1 || s.batch > applyBatch {
			t.Fatalf("%d tasks: %+v %v needs %d threads", room, s, err, n)
		}
	}
	// --jobs beyond the room is refused, with the way out.
	l.Tasks, l.TasksInUse = 20, 5
	if _, err := fit(Options{Mode: Write, Jobs: 64}, l, math.MaxInt64, 2); err == nil || !strings.Contains(err.Error(), "lower --jobs") {
		t.Errorf("--jobs 64 under 20 tasks: %v, want a refusal that says to lower --jobs", err)
	}
	// Render mode applies nothing.
	l.TasksInUse = 5
	if s, err := fit(Options{Mode: Render}, l, math.MaxInt64, 2); err != nil || s.jobs != 20-threadsOwn-threadsWalk-2 {
		t.Errorf("render: %+v %v", s, err)
	}
}

// TestApplyThreadsFollowOutput: the threads an applier is counted at are
// output's: the roots ApplyAll works on at once, and the goroutines each
// root's Apply writes on.
func TestApplyThreadsFollowOutput(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "../output/apply.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]int{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if i >= len(vs.Values) {
					break
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
					if v, err := strconv.Atoi(lit.Value); err == nil {
						found[n.Name] = v
					}
				}
			}
		}
	}
	if found["rootWorkers"] != applyRoots || found["writers"] != applyWriters {
		t.Errorf("output/apply.go has rootWorkers = %d and writers = %d; sizing counts %d and %d",
			found["rootWorkers"], found["writers"], applyRoots, applyWriters)
	}
}

// A build sizes itself by the limits its caller read (Options.Limits),
// not by reading them again.
func TestSizeBuildTakesGivenLimits(t *testing.T) {
	cg := unlimited
	cg.Memory, cg.MemoryUsed = 64<<20, 20<<20
	_, err := sizeBuild(Options{Limits: &cg})
	var le *LimitError
	if !errors.As(err, &le) || !strings.Contains(le.Error(), "memory.max") {
		t.Errorf("given a memory.max of 64 MiB: %v, want a refusal naming memory.max", err)
	}
}

// A build lowers GOMAXPROCS only when its caller lets it (Options.FitProcs,
// which discgen sets): a library's caller keeps the runtime's setting, and
// a build that fits the thread limit only on one P is then refused.
func TestSizeBuildLeavesProcs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	l := unlimited
	l.Tasks, l.TasksInUse, l.OwnThreads = 20, 10, 5 // room for 1 worker on one P
	_, err := sizeBuild(Options{Mode: Write, Limits: &l})
	var le *LimitError
	if n := runtime.GOMAXPROCS(0); n != 2 || !errors.As(err, &le) {
		t.Errorf("without FitProcs: GOMAXPROCS %d, error %v; want 2 and a refusal", n, err)
	}
	s, err := sizeBuild(Options{Mode: Write, Limits: &l, FitProcs: true})
	if n := runtime.GOMAXPROCS(0); n != 1 || err != nil || s.jobs != 1 {
		t.Errorf("with FitProcs: GOMAXPROCS %d, %+v %v; want 1 worker on one P", n, s, err)
	}
}
