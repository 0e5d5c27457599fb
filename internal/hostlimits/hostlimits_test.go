package hostlimits

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestCgroupV2(t *testing.T) {
	fsys := fstest.MapFS{
		"proc/self/cgroup":    {Data: []byte("0::/user.slice/user-1000.slice/lve\n")},
		"proc/self/mountinfo": {Data: []byte("30 23 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n")},
		// The tightest limit on the way up counts.
		"sys/fs/cgroup/user.slice/user-1000.slice/lve/cpu.max":        {Data: []byte("max 100000\n")},
		"sys/fs/cgroup/user.slice/user-1000.slice/lve/memory.max":     {Data: []byte("max\n")},
		"sys/fs/cgroup/user.slice/user-1000.slice/lve/pids.max":       {Data: []byte("40\n")},
		"sys/fs/cgroup/user.slice/user-1000.slice/lve/pids.current":   {Data: []byte("7\n")},
		"sys/fs/cgroup/user.slice/user-1000.slice/cpu.max":            {Data: []byte("150000 100000\n")},
		"sys/fs/cgroup/user.slice/user-1000.slice/memory.max":         {Data: []byte("1073741824\n")},
		"sys/fs/cgroup/user.slice/user-1000.slice/memory.current":     {Data: []byte("104857600\n")},
		"sys/fs/cgroup/user.slice/memory.max":                         {Data: []byte("2147483648\n")},
		"sys/fs/cgroup/user.slice/user-1000.slice/lve/memory.current": {Data: []byte("1\n")},
	}
	cg := readCgroup(fsys)
	if cg.cpuQuota != 1.5 || cg.memory != 1<<30 || cg.memoryUsed != 100<<20 || cg.pids != 40 || cg.pidsUsed != 7 {
		t.Errorf("got %+v", cg)
	}
}

func TestCgroupV1(t *testing.T) {
	fsys := fstest.MapFS{
		"proc/self/cgroup": {Data: []byte("4:memory:/box/a\n3:cpu,cpuacct:/box\n2:pids:/box\n")},
		"proc/self/mountinfo": {Data: []byte(
			"32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n" +
				"35 31 0:32 /box /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n" +
				"39 31 0:36 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n")},
		"sys/fs/cgroup/cpu,cpuacct/box/cpu.cfs_quota_us":  {Data: []byte("50000\n")},
		"sys/fs/cgroup/cpu,cpuacct/box/cpu.cfs_period_us": {Data: []byte("100000\n")},
		// The mount's root is /box: /box/a is below its mount point.
		"sys/fs/cgroup/memory/a/memory.limit_in_bytes": {Data: []byte("536870912\n")},
		"sys/fs/cgroup/memory/a/memory.usage_in_bytes": {Data: []byte("1048576\n")},
		"sys/fs/cgroup/memory/memory.limit_in_bytes":   {Data: []byte("9223372036854771712\n")},
		"sys/fs/cgroup/pids/box/pids.max":              {Data: []byte("max\n")},
	}
	cg := readCgroup(fsys)
	if cg.cpuQuota != 0.5 || cg.memory != 512<<20 || cg.memoryUsed != 1<<20 || cg.pids != 0 {
		t.Errorf("got %+v", cg)
	}
}

func TestNoCgroup(t *testing.T) {
	if cg := readCgroup(fstest.MapFS{}); cg != (cgroup{}) {
		t.Errorf("got %+v from nothing", cg)
	}
}

func TestRooms(t *testing.T) {
	l := Limits{CPUs: 8, CPUQuota: 1.2, Tasks: 20, TasksInUse: 9, OwnThreads: 4,
		AddressSpace: 1 << 30, AddressInUse: 700 << 20, Memory: 2 << 30, MemoryUsed: 1 << 30}
	if got := l.CPU(); got != 2 {
		t.Errorf("CPU() = %d, want 2 (a quota of 1.2 CPUs rounded up)", got)
	}
	if got := l.ThreadRoom(); got != 15 {
		t.Errorf("ThreadRoom() = %d, want 15 (20 less the 5 tasks of other processes)", got)
	}
	if got := l.MemoryRoom(); got != 324<<20 {
		t.Errorf("MemoryRoom() = %d MiB, want 324", got>>20)
	}
	if got := (Limits{AddressSpace: 1 << 20, AddressInUse: 2 << 20}).MemoryRoom(); got != 1 {
		t.Errorf("a limit already passed leaves %d, want 1", got)
	}
	if got := (Limits{TasksInUse: -1}).ThreadRoom(); got != -1 {
		t.Errorf("no task limit: ThreadRoom() = %d, want -1", got)
	}
	if got := (Limits{}).CPU(); got != 1 {
		t.Errorf("unknown CPUs: %d, want 1", got)
	}
}

// Read reads this process's limits: at least one CPU, and its own threads.
func TestRead(t *testing.T) {
	l := Read()
	if l.CPU() < 1 {
		t.Errorf("CPU() = %d", l.CPU())
	}
	t.Logf("%+v", l)
}

// Fit names the limit that leaves too little, what it leaves and what the
// work needs; without a limit, or with room enough, it says nothing.
func TestFit(t *testing.T) {
	as := Limits{AddressSpace: 800 << 20, AddressInUse: 730 << 20}
	want := "the address-space limit (RLIMIT_AS, ulimit -v) of 800 MiB, of which the Go runtime holds 730 MiB, leaves 70 MiB for lint of robots.txt, which needs about 151 MiB: raise it"
	if err := as.Fit(100<<20+1, "lint of robots.txt"); err == nil || err.Error() != want {
		t.Errorf("Fit = %v, want %q", err, want)
	}
	cg := Limits{Memory: 256 << 20, MemoryUsed: 200 << 20}
	if err := cg.Fit(64<<20, "check of x"); err == nil || !strings.HasPrefix(err.Error(), "the cgroup's memory limit (memory.max) of 256 MiB, of which 200 MiB is in use, leaves 56 MiB for check of x,") {
		t.Errorf("cgroup: %v", err)
	}
	if err := as.Fit(46<<20, "x"); err != nil {
		t.Errorf("room enough: %v", err)
	}
	if err := (Limits{}).Fit(1<<40, "x"); err != nil {
		t.Errorf("no limit: %v", err)
	}
}
