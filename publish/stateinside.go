package publish

import (
	"path/filepath"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/statedir"
)

// stateInTenants refuses a build whose state directory lies at or below
// a directory a tenants glob matches (the glob but its last component):
// whoever owns such a directory could rewrite the records of every
// output root, the site's and the other tenants', and make the next
// build take or remove files in their directories as its own. output.Plan
// refuses a state directory inside the root it opens by path (the
// site's output); a tenant's directory reaches it open, so the check is
// made here, once, before the site or any tenant is built: by the paths
// as written, and again with the symlinks on the way to the state
// directory and to each glob's prefix resolved, so that a state directory
// reached through a symlink into a tenant's directory is refused too (the
// walk follows none below a prefix). A bind mount of a tenant's directory
// elsewhere is not seen. A render writes no state and is not refused.
func stateInTenants(opt Options, site *SiteDoc, dels []*delegation) diag.List {
	var l diag.List
	if opt.StateDir == "" || opt.Mode == Render {
		return l
	}
	abs, err := filepath.Abs(opt.StateDir)
	if err != nil {
		return l
	}
	real := statedir.Resolve(abs)
	for _, d := range dels {
		dir, ok := d.pat.holdsDir(abs)
		if !ok {
			rp := *d.pat
			rp.prefix = statedir.Resolve(rp.prefix)
			dir, ok = rp.holdsDir(real)
		}
		if ok {
			l.Errorf(site.Doc.Pos.Of(d.key), d.key, "the state directory %s lies inside %s, a tenant's directory for the glob %q: its owner could rewrite the records of every output root; keep --state outside every tenant's directory", opt.StateDir, dir, d.pat.raw)
		}
	}
	return l
}

// holdsDir reports whether abs, an absolute path, lies at or below a
// directory p's tenant directories match, and which.
func (p *pattern) holdsDir(abs string) (string, bool) {
	comps, ok := p.below(abs)
	if !ok {
		return "", false
	}
	dirs := p.segs[:len(p.segs)-1]
	if len(dirs) == 0 {
		// The tenants' manifests lie in the prefix itself: the prefix
		// is their directory.
		return p.prefix, true
	}
	if len(comps) < len(dirs) {
		return "", false
	}
	for i, seg := range dirs {
		if _, ok := matchSeg(seg, comps[i]); !ok {
			return "", false
		}
	}
	return filepath.Join(p.prefix, filepath.Join(comps[:len(dirs)]...)), true
}
