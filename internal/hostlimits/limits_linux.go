package hostlimits

import (
	"bytes"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

func read() Limits {
	l := Limits{TasksInUse: -1, OwnThreads: -1, OpenFiles: openFiles()}
	var set unix.CPUSet
	if unix.SchedGetaffinity(0, &set) == nil {
		l.CPUs = set.Count()
	}
	self, _ := os.ReadFile("/proc/self/status")
	cg := readCgroup(os.DirFS("/"))
	readMemoryInto(&l, self, cg)
	if v, ok := statusField(self, "Threads:"); ok {
		l.OwnThreads = int(v)
	}
	l.CPUQuota = cg.cpuQuota
	// RLIMIT_NPROC counts every task of the real user, and root is not
	// held to it.
	uid := os.Getuid()
	if uid != 0 {
		var np unix.Rlimit
		if unix.Getrlimit(unix.RLIMIT_NPROC, &np) == nil && np.Cur != unix.RLIM_INFINITY {
			l.Tasks = np.Cur
			l.TasksInUse = userTasks(uid)
		}
	}
	if cg.pids > 0 {
		// The cgroup's count holds every task in it, whoever's.
		inUse := int(cg.pidsUsed)
		if l.Tasks == 0 || l.TasksInUse < 0 || int(cg.pids)-inUse < int(l.Tasks)-l.TasksInUse {
			l.Tasks, l.TasksInUse = cg.pids, inUse
		}
	}
	return l
}

func readMemory() Limits {
	l := Limits{TasksInUse: -1, OwnThreads: -1}
	self, _ := os.ReadFile("/proc/self/status")
	readMemoryInto(&l, self, readCgroup(os.DirFS("/")))
	return l
}

// readMemoryInto sets l's memory fields from RLIMIT_AS, the process's
// /proc/self/status and its cgroup.
func readMemoryInto(l *Limits, self []byte, cg cgroup) {
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &rl) == nil && rl.Cur != unix.RLIM_INFINITY {
		l.AddressSpace = rl.Cur
	}
	if v, ok := statusField(self, "VmSize:"); ok {
		l.AddressInUse = v << 10
	}
	l.Memory, l.MemoryUsed = cg.memory, cg.memoryUsed
}

// statusField reads a number from /proc/PID/status (the first one after
// name: kB for the Vm fields).
func statusField(status []byte, name string) (uint64, bool) {
	i := bytes.Index(status, []byte("\n"+name))
	if i < 0 {
		return 0, false
	}
	rest := status[i+1+len(name):]
	if j := bytes.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	f := bytes.Fields(rest)
	if len(f) == 0 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(f[0]), 10, 64)
	return n, err == nil
}

// userTasks counts the threads of every process whose real user is uid,
// as RLIMIT_NPROC does; -1 when /proc cannot be listed. A process that
// ends while it is read is not counted; one /proc hides (hidepid) is not
// seen at all, which the caller's headroom covers.
func userTasks(uid int) int {
	d, err := os.Open("/proc")
	if err != nil {
		return -1
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return -1
	}
	want := []byte(strconv.Itoa(uid))
	n := 0
	for _, name := range names {
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		st, err := os.ReadFile("/proc/" + name + "/status")
		if err != nil {
			continue
		}
		// Uid: real effective saved fs
		i := bytes.Index(st, []byte("\nUid:"))
		if i < 0 {
			continue
		}
		line := st[i+5:]
		if j := bytes.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		f := bytes.Fields(line)
		if len(f) == 0 || !bytes.Equal(f[0], want) {
			continue
		}
		if t, ok := statusField(st, "Threads:"); ok {
			n += int(t)
		}
	}
	return n
}
