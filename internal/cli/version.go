package cli

import (
	"fmt"
	"os"
	"runtime/debug"
)

// Version reports the version a binary was built as: release, the one a
// release build stamps in with -ldflags -X, or else the module version Go
// recorded ("(devel)" for a build of a checkout without one).
func Version(release string) string {
	if release != "" {
		return release
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// Commit reports the commit a binary was built from: release, the one a
// release build stamps in, or the revision Go recorded from the checkout
// (marked "-dirty" when the checkout had changes), or "unknown" (go
// install of a module version records none).
func Commit(release string) string {
	if release != "" {
		return release
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

// BuildID names a binary of version for what it keeps between runs: the
// version, and for a development build, which has none, the size and time
// of the executable, so that a rebuilt binary is a new one.
func BuildID(version string) string {
	if version != "(devel)" {
		return version
	}
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			return fmt.Sprintf("%s %d %d", version, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return version
}
