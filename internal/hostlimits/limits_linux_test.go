package hostlimits

import (
	"os"
	"testing"
)

func TestUserTasks(t *testing.T) {
	own, ok := statusField(mustRead(t, "/proc/self/status"), "Threads:")
	if !ok || own < 1 {
		t.Fatalf("Threads: %d %v", own, ok)
	}
	if n := userTasks(os.Getuid()); n < int(own) {
		t.Errorf("userTasks = %d, fewer than this process's %d threads", n, own)
	}
	if n := userTasks(1<<30 + 7); n != 0 {
		t.Errorf("a uid nobody runs as has %d tasks", n)
	}
}

func TestStatusField(t *testing.T) {
	st := []byte("Name:\tx\nVmSize:\t  734208 kB\nThreads:\t5\n")
	if v, ok := statusField(st, "VmSize:"); !ok || v != 734208 {
		t.Errorf("VmSize: %d %v", v, ok)
	}
	if _, ok := statusField(st, "VmPeak:"); ok {
		t.Errorf("found a field that is not there")
	}
}

func mustRead(t *testing.T, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Memory reads the same memory limits as Read, and nothing else.
func TestMemoryAgreesWithRead(t *testing.T) {
	m, r := Memory(), Read()
	if m.AddressSpace != r.AddressSpace || m.Memory != r.Memory {
		t.Errorf("Memory() = AS %d, cgroup %d; Read() = AS %d, cgroup %d", m.AddressSpace, m.Memory, r.AddressSpace, r.Memory)
	}
	if m.AddressInUse == 0 {
		t.Errorf("Memory() read no VmSize")
	}
	if m.Tasks != 0 || m.TasksInUse != -1 || m.CPUs != 0 {
		t.Errorf("Memory() read more than memory: %+v", m)
	}
}
