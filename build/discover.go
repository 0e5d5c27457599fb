package build

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/manifest"
)

// found is a tenant manifest a glob matched.
type found struct {
	show   string // the path as messages show it
	abs    string
	within string // the trusted directory its writes and reads stay in
}

// discover expands a tenants glob, relative to the manifest's directory
// unless absolute, to the regular files it matches, in lexical order.
//
// Each match gets a trusted directory: the path up to and including the
// first segment the glob's wildcards matched (/home/alice for the glob
// /home/*/public_html/autodisc.yaml). Reads of the tenant manifest and
// writes of its output go through that directory, so a tenant who turns
// public_html into a symlink to another user's directory, or to /etc,
// reaches nothing outside its own. The glob itself does not enter a
// symbolic link to a directory below the pattern's fixed prefix, so such a
// public_html is not found at all; a symlinked manifest is found and then
// refused by readConfined when it leads out of the trusted directory.
func discover(dir, pattern string) ([]found, error) {
	full := pattern
	if !filepath.IsAbs(pattern) {
		full = filepath.Join(dir, pattern)
	}
	full = filepath.Clean(full)
	matches, err := doublestar.FilepathGlob(full, doublestar.WithFilesOnly(), doublestar.WithNoFollow())
	if err != nil {
		return nil, fmt.Errorf("%q: %v", pattern, err)
	}
	// One working directory for every match: filepath.Abs would ask the
	// system for it once per tenant.
	wd := ""
	if !filepath.IsAbs(full) {
		if wd, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	absOf := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(wd, p)
	}
	base, _ := doublestar.SplitPattern(filepath.ToSlash(full))
	baseAbs := absOf(filepath.FromSlash(base))
	var out []found
	for _, m := range matches {
		abs := absOf(m)
		within := filepath.Dir(abs)
		if rel, err := filepath.Rel(baseAbs, abs); err == nil {
			if first, rest, ok := strings.Cut(rel, string(filepath.Separator)); ok && rest != "" && first != ".." {
				within = filepath.Join(baseAbs, first)
			}
		}
		out = append(out, found{show: m, abs: abs, within: within})
	}
	return out, nil
}

// readConfined reads a tenant manifest through an os.Root at within, so no
// symlink can lead the read outside it.
func readConfined(within, abs string) ([]byte, error) {
	rel, err := filepath.Rel(within, abs)
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(within)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s: %v", within, err)
	}
	defer r.Close()
	f, err := r.Open(rel)
	if err != nil {
		return nil, fmt.Errorf("cannot read tenant manifest: %v", err)
	}
	defer f.Close()
	data, err := limited.Read(f, manifest.MaxBytes)
	if err != nil {
		return nil, fmt.Errorf("cannot read tenant manifest: %v", err)
	}
	return data, nil
}
