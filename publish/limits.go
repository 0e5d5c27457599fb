package publish

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/tree"
)

// What one tenant may write, unless its delegation's limits say otherwise:
// a tenant is hostile input, and without a bound a 2 MB manifest of
// 120,000 x- files wrote 120,001 files (477 MB on disk) into a home whose
// quota, when discgen runs as root, does not count them.
const (
	DefaultTenantFiles = 1000
	DefaultTenantBytes = 4 << 20
)

// tenantLimits is what a tenant of d may write: d's limits, or the
// defaults.
type tenantLimits struct {
	files int
	bytes int64
	key   string // the manifest path of the delegation's limits, for hints
}

func limitsOf(d manifest.Delegation, i int) tenantLimits {
	l := tenantLimits{files: DefaultTenantFiles, bytes: DefaultTenantBytes, key: manifest.Key(manifest.Index("delegations", i), "limits")}
	if d.Limits != nil {
		if d.Limits.Files > 0 {
			l.files = d.Limits.Files
		}
		if d.Limits.Bytes > 0 {
			l.bytes = d.Limits.Bytes
		}
	}
	return l
}

// recordPaths is the most lines a tenant's ownership record may hold
// (output.Options.MaxPaths), which the tenant may write when it saves as
// its own user: the files of the tree it had and of the tree it gets
// (l.files each), each with one more content a killed build may have
// left, and as many directories again. A record past it is refused, and
// its tenant with it, until the tenant removes it.
func (l tenantLimits) recordPaths() int { return 8*l.files + 64 }

func (l tenantLimits) String() string { return fmt.Sprintf("files %d bytes %d", l.files, l.bytes) }

// xfile is a top-level x- file of a tenant manifest: its manifest path,
// where the manifest names it, and the bytes it renders to.
type xfile struct {
	path      string
	line, col int
	size      int64
}

func xfileOf(doc *manifest.Doc[manifest.Tenant], name string, size int64) xfile {
	mp := manifest.Key("files", name)
	pos := doc.Pos.Of(mp)
	return xfile{path: mp, line: pos.Line, col: pos.Col, size: size}
}

// inManifestOrder sorts xs in the order the manifest names them.
func inManifestOrder(xs []xfile) {
	slices.SortFunc(xs, func(a, b xfile) int {
		return cmp.Or(cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col), strings.Compare(a.path, b.path))
	})
}

// preLimits refuses, before its tree is rendered, a tenant whose x- files
// alone pass its file limit: with the index.txt that lists them, it would
// write at least one more file than it has x- files. The error is at the
// x- file that passes the limit, in manifest order.
func preLimits(doc *manifest.Doc[manifest.Tenant], l tenantLimits, site string) diag.List {
	var errs diag.List
	n := len(doc.Value.Files)
	if n+1 <= l.files {
		return errs
	}
	xs := make([]xfile, 0, n)
	for name := range doc.Value.Files {
		xs = append(xs, xfileOf(doc, name, 0))
	}
	inManifestOrder(xs)
	mp := xs[l.files-1].path
	errs.Errorf(doc.Pos.Of(mp), mp, "this tenant would write at least %d files; a tenant of this delegation writes at most %d (%s.files in %s raises it)", n+1, l.files, l.key, site)
	return errs
}

// checkLimits reports a tenant tree over its limits, at the manifest
// value that passes them: counting first what the tenant writes besides
// its x- files, then its x- files in manifest order, the one at which the
// count passes the limit; when the rest alone passes it, the key that
// makes the most of it (agents for robots.txt, delegations for inline
// delegatees).
func checkLimits(doc *manifest.Doc[manifest.Tenant], t tree.Tree, l tenantLimits, site string) diag.List {
	var errs diag.List
	var xs []xfile
	baseFiles, baseBytes := 0, int64(0)
	biggest, biggestSize := "", int64(-1)
	for p, e := range t {
		if name, ok := strings.CutPrefix(p, "autodisc/"); ok && strings.HasPrefix(name, "x-") && !strings.Contains(name, "/") {
			if _, in := doc.Value.Files[name]; in {
				xs = append(xs, xfileOf(doc, name, int64(len(e.Data))))
				continue
			}
		}
		baseFiles++
		baseBytes += int64(len(e.Data))
		if s := int64(len(e.Data)); s > biggestSize || s == biggestSize && p < biggest {
			biggest, biggestSize = p, s
		}
	}
	inManifestOrder(xs)
	at := func(mp string) diag.Pos {
		if mp == "" {
			return diag.Pos{File: doc.Pos.File, Line: 1, Col: 1}
		}
		return doc.Pos.Of(mp)
	}
	if total := baseFiles + len(xs); total > l.files {
		mp := sourceOf(biggest)
		if baseFiles <= l.files {
			mp = xs[l.files-baseFiles].path
		}
		errs.Errorf(at(mp), mp, "this tenant would write %d files; a tenant of this delegation writes at most %d (%s.files in %s raises it)", total, l.files, l.key, site)
	}
	total := baseBytes
	for _, x := range xs {
		total += x.size
	}
	if total > l.bytes {
		mp := sourceOf(biggest)
		if baseBytes <= l.bytes {
			sum := baseBytes
			for _, x := range xs {
				if sum += x.size; sum > l.bytes {
					mp = x.path
					break
				}
			}
		}
		errs.Errorf(at(mp), mp, "this tenant would write %d bytes; a tenant of this delegation writes at most %d (%s.bytes in %s raises it)", total, l.bytes, l.key, site)
	}
	return errs
}

// sourceOf is the manifest key that makes a tenant file other than a
// top-level x- file: agents for robots.txt, delegations for the files of
// inline delegatees, "" (the manifest) for the rest.
func sourceOf(p string) string {
	switch {
	case p == "autodisc/robots.txt":
		return "agents"
	case path.Dir(p) != "autodisc":
		return "delegations"
	}
	return ""
}
