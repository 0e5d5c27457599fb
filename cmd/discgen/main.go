// Command discgen publishes web discovery files from one YAML manifest.
// See usage.go, or run discgen -h.
package main

import "os"

func main() {
	os.Exit(exitCode(run(os.Args[1:], os.Stdout, os.Stderr)))
}
