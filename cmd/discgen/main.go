// Command discgen publishes web discovery files from one YAML manifest.
// See usage.go, or run discgen -h.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	tuneGC()
	fitMemory()
	os.Exit(exitCode(run(os.Args[1:], os.Stdout, os.Stderr)))
}

// tuneGC sets the collector for a build, which allocates much per tenant
// and keeps little: a few MB stay live whatever the number of tenants, so
// the default GOGC=100 collects every few MB. At 400 a 20,000-tenant
// build spent a quarter less user CPU, for a peak RSS of about 55 MB
// instead of 30 (BENCHMARKS.md). The soft limit keeps the heap well under
// the 256 MB a build is allowed, whatever a manifest holds. GOGC and
// GOMEMLIMIT in the environment still win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(192 << 20)
	}
}
