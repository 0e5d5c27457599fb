package hostlimits

import (
	"bufio"
	"bytes"
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"
)

// cgroup is what the process's cgroup and its ancestors allow: the
// tightest limit on the way up to the hierarchy's root counts.
type cgroup struct {
	cpuQuota           float64 // CPUs; 0 none
	memory, memoryUsed uint64  // bytes; 0 none
	pids, pidsUsed     uint64  // tasks; 0 none
}

// noLimit is what cgroup v1 writes for "no limit" in memory.limit_in_bytes
// (a page-rounded 2^63-1): anything this large is none.
const noLimit = 1 << 62

// readCgroup reads the limits of the process's cgroup from fsys, the root
// of the filesystem (os.DirFS("/"), or a copy in a test): the cgroup named
// in proc/self/cgroup, found through the mounts of proc/self/mountinfo.
func readCgroup(fsys fs.FS) cgroup {
	var cg cgroup
	memb, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		return cg
	}
	mounts, err := fs.ReadFile(fsys, "proc/self/mountinfo")
	if err != nil {
		return cg
	}
	for _, line := range strings.Split(string(memb), "\n") {
		// hierarchy-ID:controller-list:cgroup-path
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		ctls, cpath := parts[1], parts[2]
		if parts[0] == "0" && ctls == "" {
			if dir, ok := mountDir(mounts, "cgroup2", "", cpath); ok {
				cg.walk(fsys, dir, v2)
			}
			continue
		}
		for _, c := range strings.Split(ctls, ",") {
			if c != "memory" && c != "cpu" && c != "pids" {
				continue
			}
			if dir, ok := mountDir(mounts, "cgroup", c, cpath); ok {
				cg.walk(fsys, dir, v1(c))
			}
		}
	}
	return cg
}

// mountDir finds where the cgroup cpath is: below the mount point of a
// filesystem of type fstype (holding controller, for v1) whose root holds
// cpath. The path returned is relative to "/".
func mountDir(mountinfo []byte, fstype, controller, cpath string) (string, bool) {
	sc := bufio.NewScanner(bytes.NewReader(mountinfo))
	for sc.Scan() {
		// id parent major:minor root mount-point options [optional...] - fstype source super-options
		f := strings.Fields(sc.Text())
		sep := -1
		for i, x := range f {
			if x == "-" {
				sep = i
				break
			}
		}
		if sep < 5 || sep+3 > len(f) || f[sep+1] != fstype {
			continue
		}
		if controller != "" && !hasOpt(f[len(f)-1], controller) {
			continue
		}
		root, mnt := unescape(f[3]), unescape(f[4])
		rel := cpath
		if root != "/" {
			if cpath != root && !strings.HasPrefix(cpath, root+"/") {
				continue
			}
			rel = strings.TrimPrefix(cpath, root)
		}
		return strings.TrimPrefix(path.Join(mnt, rel), "/"), true
	}
	return "", false
}

func hasOpt(opts, want string) bool {
	for _, o := range strings.Split(opts, ",") {
		if o == want {
			return true
		}
	}
	return false
}

// unescape undoes mountinfo's octal escapes (\040 for a space).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// files names a cgroup version's files: the CPU quota and period (in
// one file for v2), the memory limit and use, the task limit and count.
type files struct {
	cpu, period, memory, memoryUsed, pids, pidsUsed string
}

var v2 = files{cpu: "cpu.max", memory: "memory.max", memoryUsed: "memory.current", pids: "pids.max", pidsUsed: "pids.current"}

func v1(controller string) files {
	switch controller {
	case "cpu":
		return files{cpu: "cpu.cfs_quota_us", period: "cpu.cfs_period_us"}
	case "memory":
		return files{memory: "memory.limit_in_bytes", memoryUsed: "memory.usage_in_bytes"}
	}
	return files{pids: "pids.max", pidsUsed: "pids.current"}
}

// walk reads the limits of dir and of each of its parents.
func (cg *cgroup) walk(fsys fs.FS, dir string, fl files) {
	for {
		cg.read(fsys, dir, fl)
		if dir == "." || dir == "" || !strings.Contains(dir, "/") {
			return
		}
		dir = path.Dir(dir)
	}
}

func (cg *cgroup) read(fsys fs.FS, dir string, fl files) {
	get := func(name string) (string, bool) {
		if name == "" {
			return "", false
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			return "", false
		}
		return strings.TrimSpace(string(b)), true
	}
	if s, ok := get(fl.cpu); ok {
		var quota, period float64 = -1, 100000
		f := strings.Fields(s)
		if len(f) > 0 && f[0] != "max" {
			if q, err := strconv.ParseFloat(f[0], 64); err == nil {
				quota = q
			}
		}
		if len(f) > 1 {
			if p, err := strconv.ParseFloat(f[1], 64); err == nil {
				period = p
			}
		}
		if p, ok := get(fl.period); ok {
			if x, err := strconv.ParseFloat(p, 64); err == nil {
				period = x
			}
		}
		if quota > 0 && period > 0 {
			if c := quota / period; cg.cpuQuota == 0 || c < cg.cpuQuota {
				cg.cpuQuota = c
			}
		}
	}
	if n, ok := number(get(fl.memory)); ok && (cg.memory == 0 || n < cg.memory) {
		cg.memory = n
		cg.memoryUsed, _ = number(get(fl.memoryUsed))
	}
	if n, ok := number(get(fl.pids)); ok && (cg.pids == 0 || n < cg.pids) {
		cg.pids = n
		cg.pidsUsed, _ = number(get(fl.pidsUsed))
	}
}

// number parses a limit: "max", or a value that large, is none.
func number(s string, ok bool) (uint64, bool) {
	if !ok || s == "max" {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n >= noLimit || n == math.MaxUint64 {
		return 0, false
	}
	return n, true
}
