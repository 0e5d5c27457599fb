package main

import (
	"fmt"
	"runtime"

	"github.com/discgen/discgen/internal/cli"
)

// Set by the release build (.goreleaser.yaml) with -ldflags -X; empty in
// any other build, which takes both from the build information Go embeds
// (cli.Version, cli.Commit).
var (
	releaseVersion string
	releaseCommit  string
)

// versionLine is what discgen version prints: the version, the commit and
// the Go release and platform the binary was built with.
func versionLine() string {
	return fmt.Sprintf("discgen %s commit %s %s %s/%s", cli.Version(releaseVersion), cli.Commit(releaseCommit), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
