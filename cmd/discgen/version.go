package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Set by the release build (.goreleaser.yaml) with -ldflags -X; empty in
// any other build, which takes both from the build information Go embeds.
var (
	releaseVersion string
	releaseCommit  string
)

// version reports the version the binary was built as: the release's, or
// the module version Go recorded ("(devel)" for a build of a checkout
// without one).
func version() string {
	if releaseVersion != "" {
		return releaseVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// commit reports the commit the binary was built from: the release's, or
// the revision Go recorded from the checkout (marked "-dirty" when the
// checkout had changes), or "unknown" (go install of a module version
// records none).
func commit() string {
	if releaseCommit != "" {
		return releaseCommit
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "unknown"
	}
	if modified == "true" {
		rev += "-dirty"
	}
	return rev
}

// versionLine is what discgen version prints: the version, the commit and
// the Go release and platform the binary was built with.
func versionLine() string {
	return fmt.Sprintf("discgen %s commit %s %s %s/%s", version(), commit(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
