package publish

import (
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/pathspace"
)

// Served is a site as its web server serves it, for a reader of its
// autodisc tree (discgen resolve -f): the tree built into the output
// directory, and in each tenant space of a delegation with a tenants glob
// the tenant's directory the glob finds there, wherever it is on disk (a
// userdir server serves /~alice/ from /home/alice/public_html).
//
// A name below a tenant space, such as "~alice/autodisc/index.txt" for the
// delegation "~*", is read from the directory whose glob components have
// each "*" filled with what the space's "*" matched, in order: the
// inverse of the build's binding of a tenant's directory to its space, and
// checked against it. The directory is reached as the build reaches it:
// from the glob's fixed prefix, never through a symbolic link, then
// confined to it. A glob with "?" or "[...]" in its directories cannot be
// filled from a URL: its spaces are read from the built tree alone.
type Served struct {
	out   string
	site  fs.FS
	dels  []*delegation
	mu    sync.Mutex
	open  map[string]*servedDir // tenant directory (absolute) -> opened
	roots []*os.Root
}

type servedDir struct {
	fsys fs.FS
	err  error
}

// LoadServed loads the site manifest opt.Manifest (validated, not
// rendered) and returns the site as served, with out, the built tree, as
// the site's own files. It returns nil and the diagnostics when the
// manifest is invalid. Close it when done.
func LoadServed(opt Options, out string, site fs.FS) (*Served, diag.List) {
	opt.Tenants = []string{opt.Manifest} // the site's tree is not rendered
	s, diags := LoadSite(opt)
	if s == nil {
		return nil, diags
	}
	dels, derrs := s.delegations()
	diags.Append(derrs)
	if diags.HasErrors() {
		diags.Sort()
		return nil, diags
	}
	return &Served{out: out, site: site, dels: dels, open: map[string]*servedDir{}}, diags
}

// Close closes the tenants' directories opened.
func (f *Served) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.roots {
		r.Close()
	}
	f.roots = nil
	return nil
}

// Open opens name, a slash path of the site as served.
func (f *Served) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	t, ok := f.tenant(name)
	if !ok {
		return f.site.Open(name)
	}
	fsys, err := f.dir(t)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return fsys.Open(t.rest)
}

// Path is where name is on disk, as messages show it: in a tenant's
// directory, or in the output directory.
func (f *Served) Path(name string) string {
	if name == "" {
		return ""
	}
	if t, ok := f.tenant(name); ok {
		return filepath.Join(t.show, filepath.FromSlash(t.rest))
	}
	return filepath.Join(f.out, filepath.FromSlash(name))
}

// servedTenant is the tenant directory that serves a name.
type servedTenant struct {
	d    *delegation
	rel  string // the directory below the glob's prefix, slash-separated
	show string // the directory as messages show it
	rest string // the name below the directory; "." for the directory
}

// tenant finds the tenant directory that serves name.
func (f *Served) tenant(name string) (servedTenant, bool) {
	if name == "." {
		return servedTenant{}, false
	}
	segs := strings.Split(name, "/")
	for _, d := range f.dels {
		n := d.space.Depth()
		if n == 0 || len(segs) < n || strings.ContainsAny(strings.Join(segs[:n], "/"), "*") {
			continue
		}
		inst, err := pathspace.Parse(pathspace.Root(), "/"+strings.Join(segs[:n], "/")+"/")
		if err != nil || !inst.Literal() || !pathspace.IsInstance(d.space, inst) {
			continue
		}
		caps, ok := captures(d.space.Segments(), inst.Segments())
		if !ok {
			continue
		}
		comps, ok := fill(d.pat.segs, caps)
		if !ok {
			continue
		}
		// The build binds the directory found back to this space: the
		// same glob captures, the same space.
		abs := filepath.Join(d.pat.prefix, filepath.FromSlash(strings.Join(comps, "/")))
		_, got, ok := d.pat.matchFile(abs)
		if !ok || !slices.Equal(got, caps) {
			continue
		}
		if sp, err := bindSpace(d.path, got); err != nil || sp != inst {
			continue
		}
		t := servedTenant{d: d, rel: strings.Join(comps[:len(comps)-1], "/"), rest: strings.Join(segs[n:], "/")}
		t.show = filepath.Join(d.pat.show, filepath.FromSlash(t.rel))
		if t.rest == "" {
			t.rest = "."
		}
		return t, true
	}
	return servedTenant{}, false
}

// captures matches the canonical segments of a literal space against
// those of a delegation space and returns what each "*" matched, decoded.
func captures(pats, segs []string) ([]string, bool) {
	var caps []string
	for i, p := range pats {
		cs, ok := matchSeg(p, segs[i])
		if !ok {
			return nil, false
		}
		for _, c := range cs {
			dec, err := url.PathUnescape(c)
			if err != nil || dec == "" {
				return nil, false
			}
			caps = append(caps, dec)
		}
	}
	return caps, true
}

// fill fills the glob's components' "*"s with caps, in order; false when
// a component has another wildcard, or the counts differ.
func fill(segs, caps []string) ([]string, bool) {
	out := make([]string, len(segs))
	i := 0
	for k, s := range segs {
		if strings.ContainsAny(s, "?[") {
			return nil, false
		}
		var b strings.Builder
		for _, c := range s {
			if c != '*' {
				b.WriteRune(c)
				continue
			}
			if i >= len(caps) {
				return nil, false
			}
			b.WriteString(caps[i])
			i++
		}
		out[k] = b.String()
	}
	return out, i == len(caps)
}

// dir opens a tenant's directory the way the build does, once.
func (f *Served) dir(t servedTenant) (fs.FS, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if d, ok := f.open[t.show]; ok {
		return d.fsys, d.err
	}
	d := &servedDir{}
	f.open[t.show] = d
	d.fsys, d.err = f.openDir(t)
	return d.fsys, d.err
}

func (f *Served) openDir(t servedTenant) (fs.FS, error) {
	top, err := confined.OpenTop(t.d.pat.prefix)
	if err != nil {
		return nil, err
	}
	defer top.Close()
	dir := top
	if t.rel != "" {
		if dir, err = top.OpenPath(t.rel); err != nil {
			return nil, err
		}
		defer dir.Close()
	}
	root, err := dir.Root()
	if err != nil {
		return nil, err
	}
	f.roots = append(f.roots, root)
	return limited.RootFS(root), nil
}
