package publish

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"

	"github.com/discgen/discgen/internal/hostlimits"
)

// A build sizes itself to the host's limits (hostlimits.Read): how many
// tenants are in work at once, how many batches of plans are applied at
// once, and how much memory the manifests being parsed may hold. A shared
// host's per-user limits (a few dozen threads, about 1 GiB of address
// space, one CPU) are met by doing less at once, never by failing halfway;
// a limit too low for even one worker refuses the build before it starts,
// naming the limit.

// Threads. Every goroutine blocked in a system call holds an OS thread,
// and the runtime starts a new one to run the others, so a build has up
// to GOMAXPROCS threads running Go code, one per worker and per writer
// goroutine in a system call, and the runtime's own (sysmon, a template
// thread, one spare): threadsOwn. An applier's output.Writer.ApplyAll works on
// up to applyRoots roots of its batch at once, and each root's Apply
// writes and renames a large tree's files (more than 64) on applyWriters
// goroutines: applyRoots × applyWriters threads in system calls at once
// (the disk or the host's I/O throttle makes them wait), fewer where a
// batch holds fewer roots. A thread the kernel refuses (RLIMIT_NPROC,
// pids.max) is a fatal error no program can catch, so the workers, the
// appliers and their batches are sized to fit before any starts.
//
// debug.SetMaxThreads is left at the runtime's default (10,000): past it
// the runtime crashes just as it does when the kernel refuses a thread,
// so a lower setting would turn no crash into a refusal; the sizing here
// is what keeps the count under the limit.
const (
	threadsOwn  = 4
	threadsWalk = 1 // the walk's own system calls
	// applyRoots and applyWriters are output's rootWorkers and writers
	// (TestApplyThreadsFollowOutput reads them there).
	applyRoots   = 4
	applyWriters = 8
)

// Memory. Loading, validating and rendering a manifest keeps about 16
// bytes live per byte of it (a 2.6 MB manifest of 120,000 rules peaked at
// 42 MB live; the bounds test holds every shape under 64 MiB at
// manifest.MaxBytes), and one that uses aliases can expand to that bound
// from a few kB. Before it parses, a worker takes the manifest's cost from
// the build's memory budget, and gives it back once the tree is rendered.
const (
	costPerByte = 16
	// costMax is the most a manifest can cost, whatever it holds
	// (manifest's 64 MiB live bound).
	costMax = 64 << 20
	// smallManifest is the size below which a manifest never waits for
	// budget: its cost (1 MiB at most) is set aside per worker.
	smallManifest = 64 << 10
	smallCost     = smallManifest * costPerByte
	// smallStateCost is the most a tenant's record or stat cache costs
	// (output's 4 bytes a byte) and still takes from its worker's share:
	// read after the tree is rendered, it fits in what the manifest
	// took from that share.
	smallStateCost = 256 << 10
	// defaultBudget is the budget where no limit says less.
	defaultBudget = 256 << 20
	// minRoom is the least memory a build needs beyond what the Go
	// runtime holds at start-up: room for a manifest at the bound, and as
	// much again for the collector. With an address-space limit, the
	// runtime itself holds about 730 MiB of it on amd64.
	minRoom = 2 * costMax
	// minBudget is the least budget, whatever GOMEMLIMIT says.
	minBudget = 8 << 20
)

// perCPU is the most workers per CPU the default allows: the workers
// mostly wait on the disk, and 64 on two CPUs kept both busy.
const perCPU = 32

// sizing is how a build runs within the limits.
type sizing struct {
	jobs     int   // workers
	appliers int   // batchers applying plans at once (Write mode)
	batch    int   // the most plans a batch holds (applyBatch, or fewer roots at once)
	budget   int64 // bytes of manifest cost in work at once, small ones' share included
	procs    int   // GOMAXPROCS to set, or 0 to leave it
}

// LimitError says which limit leaves too little for a build.
type LimitError struct {
	Limit string // the limit, as a host's administrator knows it
	Msg   string
}

func (e *LimitError) Error() string { return e.Limit + " " + e.Msg }

// fit sizes a build of opt within the limits l, given the Go runtime's
// soft memory limit (math.MaxInt64 when none).
func fit(opt Options, l hostlimits.Limits, softLimit int64, maxProcs int) (sizing, error) {
	s := sizing{jobs: opt.Jobs}
	if s.jobs <= 0 {
		s.jobs = min(defaultJobs, perCPU*l.CPU())
	}
	// Memory: the budget is what the manifests in work may hold live;
	// the collector needs as much again beyond it.
	s.budget = defaultBudget
	if opt.Memory > 0 {
		s.budget = opt.Memory
	}
	if softLimit > 0 && softLimit < math.MaxInt64 {
		s.budget = min(s.budget, softLimit/2)
	}
	if room := l.MemoryRoom(); room > 0 {
		if room < minRoom {
			return s, &LimitError{memoryLimit(l), fmt.Sprintf("leaves %s for a build, which needs at least %s: raise it",
				mib(int64(room)), mib(minRoom))}
		}
		s.budget = min(s.budget, int64(min(room/4, math.MaxInt64/2)))
	}
	s.budget = max(s.budget, minBudget)
	if opt.Jobs <= 0 {
		// Half the budget at most is set aside for small manifests.
		s.jobs = min(s.jobs, max(1, int(s.budget/2/smallCost)))
		// Each worker holds a plan's descriptors, beside a batch's.
		if f := l.OpenFiles; f > 0 {
			s.jobs = min(s.jobs, max(1, (int(min(f, 1<<20))-128-applyBatch*fdsPerPlan)/fdsPerPlan))
		}
	}
	// Threads: fewer appliers, then fewer roots at once in a batch, then
	// fewer workers, then one P (where the caller lets it: FitProcs).
	s.appliers, s.batch = 1, applyBatch
	if opt.Mode == Write {
		s.appliers = batchersFor(s.jobs, l.OpenFiles)
	}
	room := l.ThreadRoom()
	if room < 0 {
		return s, nil
	}
	procs := maxProcs
	need := func(jobs, appliers, procs int) int {
		n := threadsOwn + threadsWalk + procs + jobs
		if opt.Mode == Write {
			n += appliers * applyThreads(s.batch)
		}
		return n
	}
	for need(s.jobs, s.appliers, procs) > room {
		switch {
		case s.appliers > 1:
			s.appliers--
		case opt.Mode == Write && s.batch > 1:
			s.batch = min(s.batch, applyRoots) - 1
		case opt.Jobs <= 0 && s.jobs > 1:
			s.jobs = max(1, room-need(0, s.appliers, procs))
		case procs > 1 && opt.FitProcs:
			procs = 1
			s.procs = 1
		default:
			hint := "raise the limit, or stop some of the user's processes"
			if opt.Jobs > 1 {
				hint = fmt.Sprintf("lower --jobs (%d workers need %d threads), raise the limit, or stop some of the user's processes", opt.Jobs, need(opt.Jobs, s.appliers, procs))
			}
			return s, &LimitError{taskLimit(l), fmt.Sprintf("leaves this process %d threads, and a build needs at least %d: %s",
				room, need(1, s.appliers, procs), hint)}
		}
	}
	return s, nil
}

// applyThreads is the most threads an applier's batches of up to batch
// plans hold in system calls at once.
func applyThreads(batch int) int {
	return min(batch, applyRoots) * applyWriters
}

// memoryLimit names the limit that sets the memory room.
func memoryLimit(l hostlimits.Limits) string { return l.MemoryLimit() }

// taskLimit names the limit that sets the thread room.
func taskLimit(l hostlimits.Limits) string {
	return fmt.Sprintf("the limit of %d processes and threads (RLIMIT_NPROC, ulimit -u, or the cgroup's pids.max), %d of them in use, this process's %d included,", l.Tasks, l.TasksInUse, l.OwnThreads)
}

func mib(n int64) string { return fmt.Sprintf("%d MiB", n>>20) }

// sizeBuild sizes a build of opt within this process's limits, and, with
// opt.FitProcs, sets GOMAXPROCS when the thread limit asks for fewer.
func sizeBuild(opt Options) (sizing, error) {
	var l hostlimits.Limits
	if opt.Limits != nil {
		l = *opt.Limits
	} else {
		l = hostlimits.Read()
	}
	s, err := fit(opt, l, debug.SetMemoryLimit(-1), runtime.GOMAXPROCS(0))
	if err == nil && s.procs > 0 {
		runtime.GOMAXPROCS(s.procs)
	}
	return s, err
}
