// Command discgen publishes web discovery files from one YAML manifest.
// See usage.go, or run discgen -h.
package main

import (
	"os"

	"github.com/discgen/discgen/internal/gcpolicy"
	"github.com/discgen/discgen/internal/hostlimits"
	"github.com/discgen/discgen/robots"
)

func main() {
	gcpolicy.Tune() // GOGC=400 with a 96 MiB soft limit: see the package
	e := &call{stdout: os.Stdout, stderr: os.Stderr}
	if args := os.Args[1:]; !printsOnly(args) {
		var l hostlimits.Limits
		if sizesBuild(args) {
			l = hostlimits.Read()
			e.limits = &l
		} else {
			l = hostlimits.Memory()
		}
		e.mem = &l
		gcpolicy.FitHost(l)
	}
	os.Exit(exitCode(e.run(os.Args[1:])))
}

// roomToRead is roomFor the read of the file name, read up to max bytes,
// by its size: before the read, whose cost the file's size alone tells
// (robots.ReadCost). A file that cannot be stat'ed, or is larger than
// max, is left to the read to report.
func (e *call) roomToRead(name string, max int64, what string) error {
	fi, err := os.Stat(name)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > max {
		return nil
	}
	return e.roomFor(robots.ReadCost(fi.Size()), what)
}

// roomFor refuses, in one line naming the limit, work that needs about
// need bytes when the host's limits leave this process less
// (hostlimits.Limits.Fit); what names the work ("check of robots.txt").
func (e *call) roomFor(need int64, what string) error {
	l := e.mem
	if l == nil {
		m := hostlimits.Memory()
		l = &m
	}
	return l.Fit(uint64(max(need, 0)), what)
}

// sizesBuild reports whether a command line runs a build that sizes
// itself to every limit of the host (publish.Run); other commands need
// only the memory limits, and not the count of the user's tasks in /proc
// that a full read makes.
func sizesBuild(args []string) bool {
	return len(args) > 0 && (args[0] == "build" || args[0] == "validate")
}

// printsOnly reports whether a command line only prints text discgen
// holds (usage, the version): it allocates next to nothing, so the host's
// memory limits, which FitHost reads from /proc and the cgroup files, do
// not matter to it.
func printsOnly(args []string) bool {
	if len(args) == 0 {
		return true
	}
	switch args[0] {
	case "-h", "--help", "help", "--version", "version":
		return true
	}
	return len(args) == 2 && (args[1] == "-h" || args[1] == "--help")
}
