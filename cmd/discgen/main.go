// Command discgen publishes web discovery files from one YAML manifest.
// See usage.go, or run discgen -h.
package main

import (
	"os"

	"github.com/discgen/discgen/internal/gcpolicy"
)

func main() {
	gcpolicy.Tune() // GOGC=400 with a 96 MiB soft limit: see the package
	gcpolicy.FitHost()
	os.Exit(exitCode(run(os.Args[1:], os.Stdout, os.Stderr)))
}
