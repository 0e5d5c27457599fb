package publish

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/discgen/discgen/internal/statedir"
)

// verdictFile keeps the site's schema verdicts (generate.Verdicts) in its
// state directory, in the file "verdicts.stat" (machine-local like the
// stat caches, and kept out of version control by the same line of the
// state directory's .gitignore): a line naming the format, one
// naming the discgen version, then one key a line. The keys of another
// version are not read (the library that checks may have changed). A
// build keeps the keys it used or added and writes the file when they
// changed, replacing it whole. It is an optimisation only: a file that
// cannot be read is as none, and one that cannot be written is left. A
// tenant's files never go through it.
type verdictFile struct {
	path    string
	version string
	known   map[string]bool // read
	used    map[string]bool // found valid or added by this build
}

const (
	verdictMagic = "discgen schema verdicts 1"
	// maxVerdicts bounds the keys read: a site has a few well-known
	// files checked against a schema.
	maxVerdicts     = 1024
	maxVerdictBytes = 128 << 10
)

// loadVerdicts reads the verdicts of stateDir for this version.
func loadVerdicts(stateDir, version string) *verdictFile {
	v := &verdictFile{path: filepath.Join(stateDir, "verdicts.stat"), version: version,
		known: map[string]bool{}, used: map[string]bool{}}
	data, _, err := statedir.ReadFile(v.path, maxVerdictBytes)
	if err != nil {
		return v
	}
	lines := strings.Split(string(data), "\n")
	if len(lines) < 2 || lines[0] != verdictMagic || lines[1] != "version "+version {
		return v
	}
	for _, l := range lines[2:] {
		if len(v.known) == maxVerdicts {
			break
		}
		if isVerdictKey(l) {
			v.known[l] = true
		}
	}
	return v
}

// isVerdictKey reports whether s is a key as generate makes them: a
// SHA-256 in hex.
func isVerdictKey(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == sha256.Size
}

func (v *verdictFile) Valid(key string) bool {
	if v.known[key] {
		v.used[key] = true
		return true
	}
	return false
}

func (v *verdictFile) Add(key string) { v.used[key] = true }

// save writes the keys this build used when they differ from those read,
// into a state directory that exists (a first build's is made later).
func (v *verdictFile) save() {
	if maps.Equal(v.known, v.used) || !statedir.Exists(filepath.Dir(v.path)) {
		return
	}
	var b strings.Builder
	b.WriteString(verdictMagic + "\nversion " + v.version + "\n")
	for _, k := range slices.Sorted(maps.Keys(v.used)) {
		b.WriteString(k + "\n")
	}
	statedir.WriteFile(statedir.RandomTemp(v.path), v.path, []byte(b.String()), false, false) // an optimisation: a failure leaves the old file
}
