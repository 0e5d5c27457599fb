// Package hostlimits reads the limits a host sets on this process: the
// CPUs it may run on, its share of them, its memory and address space,
// how many threads its user may still start and how many files it may
// open. A shared host sets such limits per user (CloudLinux LVE-style: a
// few dozen processes and threads, about 1 GiB of virtual memory, one
// CPU), and a container sets them in its cgroup; a build sizes its work
// to fit them rather than fail in the middle of it.
//
// Read takes what Linux tells: getrlimit(2) for RLIMIT_NPROC, RLIMIT_AS
// and RLIMIT_NOFILE; sched_getaffinity(2); the process's cgroup (v2 or
// v1, its ancestors included) for its CPU quota, memory limit and task
// limit; /proc for the tasks the user runs now and the address space this
// process holds. Elsewhere only the open-file limit is read. A value that
// cannot be read is taken as no limit.
package hostlimits

import (
	"fmt"
	"math"
)

// Limits is what Read found. Zero means no limit, or none that could be
// read.
type Limits struct {
	// CPUs is the number of CPUs the process may run on (its affinity).
	CPUs int
	// CPUQuota is the cgroup's CPU quota, in CPUs (cpu.max).
	CPUQuota float64
	// Memory is the cgroup's memory limit in bytes (memory.max), and
	// MemoryUsed what the cgroup uses now.
	Memory, MemoryUsed uint64
	// AddressSpace is the soft RLIMIT_AS in bytes, and AddressInUse the
	// address space this process holds now (VmSize): the Go runtime
	// alone reserves a few hundred MiB of it at start-up.
	AddressSpace, AddressInUse uint64
	// Tasks is how many processes and threads this process's user may
	// have at once: the soft RLIMIT_NPROC (which does not apply to root)
	// or the cgroup's pids.max, whichever leaves fewer. TasksInUse is
	// how many of them run now, this process's own threads included, and
	// OwnThreads this process's threads; -1 when unknown.
	Tasks      uint64
	TasksInUse int
	OwnThreads int
	// OpenFiles is the soft RLIMIT_NOFILE, which the Go runtime raises
	// to the hard limit at start-up.
	OpenFiles uint64
}

// Read reads the limits of this process.
func Read() Limits { return read() }

// Memory reads only the limits MemoryRoom uses (the address space and
// the cgroup's memory), leaving the others zero: cheap enough to call at
// start-up, where Read would count every task of the user in /proc.
func Memory() Limits { return readMemory() }

// OpenFiles is the soft RLIMIT_NOFILE alone (0 when unknown): one system
// call, for a caller that sizes itself often.
func OpenFiles() uint64 { return openFiles() }

// CPU is how many CPUs' worth of time the process may use: its affinity,
// cut to the cgroup's quota (rounded up), at least 1.
func (l Limits) CPU() int {
	n := l.CPUs
	if l.CPUQuota > 0 {
		q := int(math.Ceil(l.CPUQuota))
		if n == 0 || q < n {
			n = q
		}
	}
	return max(n, 1)
}

// ThreadRoom is how many threads this process may have in all: the task
// limit less the tasks the user's other processes hold. It is -1 when
// there is no limit, or the tasks in use are unknown.
func (l Limits) ThreadRoom() int {
	if l.Tasks == 0 || l.TasksInUse < 0 || l.Tasks > math.MaxInt32 {
		return -1
	}
	others := l.TasksInUse - l.OwnThreads
	return int(l.Tasks) - max(others, 0)
}

// MemoryRoom is how many more bytes the process may come to hold: what
// the address-space limit leaves beyond what it holds now, or what the
// cgroup's memory limit leaves beyond what the cgroup uses, whichever is
// less. It is 0 when there is no limit, and 1 when a limit is already
// reached.
func (l Limits) MemoryRoom() uint64 {
	room := uint64(0)
	take := func(limit, used uint64) {
		if limit == 0 {
			return
		}
		r := uint64(1)
		if limit > used+1 {
			r = limit - used
		}
		if room == 0 || r < room {
			room = r
		}
	}
	take(l.AddressSpace, l.AddressInUse)
	take(l.Memory, l.MemoryUsed)
	return room
}

// MemoryLimit names the limit that sets MemoryRoom, as a host's
// administrator knows it, with what it holds: "the address-space limit
// (RLIMIT_AS, ulimit -v) of 1024 MiB, of which the Go runtime holds
// 730 MiB,".
func (l Limits) MemoryLimit() string {
	if l.AddressSpace > 0 && (l.Memory == 0 || l.AddressSpace-min(l.AddressInUse, l.AddressSpace) <= l.Memory-min(l.MemoryUsed, l.Memory)) {
		return fmt.Sprintf("the address-space limit (RLIMIT_AS, ulimit -v) of %s, of which the Go runtime holds %s,", mib(l.AddressSpace), mib(l.AddressInUse))
	}
	if l.Memory > 0 {
		return fmt.Sprintf("the cgroup's memory limit (memory.max) of %s, of which %s is in use,", mib(l.Memory), mib(l.MemoryUsed))
	}
	return "the memory limit"
}

func mib(n uint64) string { return fmt.Sprintf("%d MiB", n>>20) }

// ShortError says that a limit of the host leaves too little memory for
// a piece of work.
type ShortError struct {
	Limit string // MemoryLimit
	Msg   string
}

func (e *ShortError) Error() string { return e.Limit + " " + e.Msg }

// Fit returns a *ShortError when the memory the host leaves this process
// (MemoryRoom) is less than what need bytes of work take, for what
// ("check of robots.txt"); nil when it is enough, or when there is no
// limit. need is what the work holds at most; it takes half as much
// again: the runtime maps its heap in 64 MiB arenas, and lets garbage
// grow to half the room (gcpolicy.FitHost) before it collects (a parse
// holding 80 MB died where 127 MiB were left). A command that reads a
// file whole calls it before the work that grows with the file, so that
// a limit too low is told in one line rather than by the runtime's trace
// when an allocation fails.
func (l Limits) Fit(need uint64, what string) error {
	room := l.MemoryRoom()
	need += need / 2
	if room == 0 || room >= need {
		return nil
	}
	return &ShortError{l.MemoryLimit(), fmt.Sprintf("leaves %s for %s, which needs about %s: raise it", mib(room), what, mib(need+1<<20-1))}
}
