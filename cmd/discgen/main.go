// Command discgen publishes web discovery files from one YAML manifest.
// See usage.go, or run discgen -h.
package main

import (
	"os"

	"github.com/discgen/discgen/internal/gcpolicy"
)

func main() {
	gcpolicy.Tune() // GOGC=400 with a 96 MiB soft limit: see the package
	if !printsOnly(os.Args[1:]) {
		gcpolicy.FitHost()
	}
	os.Exit(exitCode(run(os.Args[1:], os.Stdout, os.Stderr)))
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
