// Package build turns a site manifest into the trees discgen writes: it
// loads and validates the site manifest, renders it, then finds, validates
// and renders each tenant manifest its delegations name.
//
// The unit of work is an authority: the site (with its inline delegatees)
// or one tenant. Units are validated and rendered separately, so a bad
// tenant manifest is reported and skipped while every other tenant is
// built; a bad site manifest stops everything, since tenants hang off it.
// build itself writes nothing: the caller hands each Output to the output
// package (or compares it, for --check).
package build

import (
	"cmp"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tree"
	"github.com/discgen/discgen/validate"
)

// Options says what to build.
type Options struct {
	// Manifest is the site manifest's path, as the user gave it; messages
	// name files relative to it.
	Manifest string
	// Env selects an environment of the manifest.
	Env string
	// Now is the time security.txt dates resolve against.
	Now time.Time
	// RobotsSymlink makes autodisc/robots.txt a symlink to /robots.txt.
	RobotsSymlink bool
	// Jobs bounds how many tenants are processed at once (default: the
	// number of CPUs).
	Jobs int
	// SiteOnly skips the tenants: for callers that need only the site's
	// own files, such as its robots.txt.
	SiteOnly bool
	// Unsigned renders security.txt without its signature, so callers that
	// need only robots.txt (check -f) do not need the signing key.
	Unsigned bool
}

// Output is one rendered output root.
type Output struct {
	// Manifest is the file the tree comes from.
	Manifest string
	// Root is the directory the tree belongs in; empty for the site,
	// whose directory the caller chooses (-o).
	Root string
	// Within is the trusted directory a tenant's Root must stay inside
	// (see output.Options.Within); empty for the site.
	Within string
	// Space is the URL-path space of the authority.
	Space pathspace.Space
	Tree  tree.Tree
	// Access is what --server output refuses and marks noindex (the
	// site's; empty for tenants).
	Access serverconf.Access
}

// Result is the outcome of a build.
type Result struct {
	// Site is the site's output, nil when the site manifest is invalid.
	Site *Output
	// Tenants are the valid tenants' outputs, sorted by manifest path.
	Tenants []*Output
	// Diags holds every error and warning, sorted by position.
	Diags diag.List
	// FailedTenants counts tenant manifests that were refused.
	FailedTenants int
}

// Run loads, validates and renders the site manifest and its tenants.
func Run(opt Options) *Result {
	res := &Result{}
	defer res.Diags.Sort()
	data, err := limited.ReadFile(opt.Manifest, manifest.MaxBytes)
	if err != nil {
		res.Diags.Errorf(diag.Pos{File: opt.Manifest}, "", "cannot read manifest: %v", err)
		return res
	}
	doc, errs := manifest.LoadSite(opt.Manifest, data, opt.Env)
	res.Diags.Append(errs)
	if doc == nil {
		return res
	}
	vopt := validate.Options{Now: opt.Now}
	if res.Diags.Append(validate.Site(doc, vopt)); res.Diags.HasErrors() {
		return res
	}
	dir := filepath.Dir(opt.Manifest)
	t, errs := generate.Site(doc, generate.Options{Now: opt.Now, Dir: dir, RobotsSymlink: opt.RobotsSymlink, Unsigned: opt.Unsigned})
	if res.Diags.Append(errs); res.Diags.HasErrors() {
		return res
	}
	access, errs := generate.SiteAccess(doc)
	res.Diags.Append(errs)
	res.Site = &Output{Manifest: opt.Manifest, Space: pathspace.Root, Tree: t, Access: access}
	site, _ := url.Parse(doc.Value.Site.URL)
	self, _ := filepath.Abs(opt.Manifest)
	if !opt.SiteOnly {
		tenants(res, doc, dir, self, site, vopt, opt.Jobs)
	}
	return res
}

// tenantJob is one tenant manifest found by a delegation's glob.
type tenantJob struct {
	file    string // as shown in messages
	abs     string // absolute path
	within  string // trusted directory
	grant   validate.FileSet
	space   pathspace.Space // the delegation's space
	tenants string          // manifest path of the tenants key

	pathPos diag.Pos // where the tenant manifest declares its path
	out     *Output
	diags   diag.List
}

// tenants finds and builds every tenant of the site's delegations. A glob
// that matches the site manifest itself (self, absolute) does not make it
// a tenant.
func tenants(res *Result, doc *manifest.Doc[manifest.Site], dir, self string, site *url.URL, vopt validate.Options, jobs int) {
	var all, run []*tenantJob
	byFile := map[string]*tenantJob{}
	for i, d := range doc.Value.Delegations {
		if d.Tenants == "" {
			continue
		}
		p := manifest.Key(manifest.Index("delegations", i), "tenants")
		space, err := pathspace.Parse(pathspace.Root, d.Path)
		if err != nil {
			continue // validation has reported it
		}
		found, err := discover(dir, d.Tenants)
		if err != nil {
			res.Diags.Errorf(doc.Pos.Of(p), p, "%v", err)
			continue
		}
		if len(found) == 0 {
			res.Diags.Warnf(doc.Pos.Of(p), p, "%q matches no tenant manifest", d.Tenants)
		}
		grant := validate.Grant(validate.AllFiles(), d.Only, d.Except)
		for _, f := range found {
			if f.abs == self {
				continue
			}
			// A manifest two globs match would hold two grants: it
			// belongs to neither delegation.
			if first, dup := byFile[f.abs]; dup {
				if !first.diags.HasErrors() {
					first.diags.Errorf(diag.Pos{File: first.file}, "", "matched by both %s and %s of %s: a tenant manifest belongs to one delegation", first.tenants, p, doc.Pos.File)
				}
				continue
			}
			j := &tenantJob{file: f.show, abs: f.abs, within: f.within, grant: grant, space: space, tenants: p}
			byFile[f.abs] = j
			all = append(all, j)
		}
	}
	for _, j := range all {
		if !j.diags.HasErrors() {
			run = append(run, j)
		}
	}
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	work := make(chan *tenantJob)
	var wg sync.WaitGroup
	for range min(jobs, len(run)) {
		wg.Go(func() {
			for j := range work {
				j.run(site, vopt)
			}
		})
	}
	for _, j := range run {
		work <- j
	}
	close(work)
	wg.Wait()

	var ok []*tenantJob
	for _, j := range run {
		if j.out != nil {
			ok = append(ok, j)
		}
	}
	conflicts(ok)
	slices.SortFunc(all, func(a, b *tenantJob) int { return strings.Compare(a.file, b.file) })
	for _, j := range all {
		res.Diags.Append(j.diags)
		if j.diags.HasErrors() {
			res.FailedTenants++
		} else {
			res.Tenants = append(res.Tenants, j.out)
		}
	}
}

// andOthers counts further claimants in a message.
func andOthers(n int) string {
	switch {
	case n <= 0:
		return ""
	case n == 1:
		return " and 1 other"
	}
	return fmt.Sprintf(" and %d others", n)
}

// conflicts refuses the tenants that cannot all hold what they claim: two
// tenants whose spaces intersect, and two tenants whose directories are
// the same or one inside the other (their trees would land on the same
// files). Both of a pair are refused: neither has a better claim.
func conflicts(ok []*tenantJob) {
	// Tenants choose their own paths, so many may claim one space: group
	// identical claims first, so that each claimant gets one error rather
	// than one per other claimant.
	var spaces []pathspace.Space
	claims := map[pathspace.Space][]*tenantJob{}
	for _, j := range ok {
		if _, seen := claims[j.out.Space]; !seen {
			spaces = append(spaces, j.out.Space)
		}
		claims[j.out.Space] = append(claims[j.out.Space], j)
	}
	for _, sp := range spaces {
		if js := claims[sp]; len(js) > 1 {
			for _, j := range js {
				other := js[0]
				if other == j {
					other = js[1]
				}
				j.diags.Errorf(j.pathPos, "path", "%s is also claimed by %s%s", sp, other.file, andOthers(len(js)-2))
			}
		}
	}
	for _, c := range pathspace.CheckSet(spaces) {
		as, bs := claims[spaces[c.I]], claims[spaces[c.J]]
		for _, a := range as {
			a.diags.Errorf(a.pathPos, "path", "%s overlaps %s, claimed by %s%s", a.out.Space, bs[0].out.Space, bs[0].file, andOthers(len(bs)-1))
		}
		for _, b := range bs {
			b.diags.Errorf(b.pathPos, "path", "%s overlaps %s, claimed by %s%s", b.out.Space, as[0].out.Space, as[0].file, andOthers(len(as)-1))
		}
	}

	// Keyed by its directory and a final separator, a directory sorts
	// before the directories inside it, and every key between the two has
	// the directory's key as a prefix; the stack holds the chain of
	// directories enclosing the current one.
	type rooted struct {
		key string
		j   *tenantJob
	}
	byRoot := make([]rooted, len(ok))
	for i, j := range ok {
		key := j.out.Root
		if !strings.HasSuffix(key, string(filepath.Separator)) {
			key += string(filepath.Separator)
		}
		byRoot[i] = rooted{key, j}
	}
	slices.SortFunc(byRoot, func(a, b rooted) int {
		return cmp.Or(strings.Compare(a.key, b.key), strings.Compare(a.j.abs, b.j.abs))
	})
	var stack []rooted
	for _, r := range byRoot {
		for len(stack) > 0 && !strings.HasPrefix(r.key, stack[len(stack)-1].key) {
			stack = stack[:len(stack)-1]
		}
		for _, o := range stack {
			j := r.j
			j.diags.Errorf(diag.Pos{File: j.file}, "", "renders into %s, the directory of %s too", j.out.Root, o.j.file)
			o.j.diags.Errorf(diag.Pos{File: o.j.file}, "", "renders into %s, which holds the directory of %s", o.j.out.Root, j.file)
		}
		stack = append(stack, r)
	}
}

// run loads, validates and renders one tenant.
func (j *tenantJob) run(site *url.URL, vopt validate.Options) {
	data, err := readConfined(j.within, j.abs)
	if err != nil {
		j.diags.Errorf(diag.Pos{File: j.file}, "", "%v", err)
		return
	}
	doc, errs := manifest.LoadTenant(j.file, data)
	j.diags.Append(errs)
	if doc == nil {
		return
	}
	j.pathPos = doc.Pos.Of("path")
	space, errs := validate.Tenant(doc, j.space, j.grant, vopt)
	if j.diags.Append(errs); j.diags.HasErrors() {
		return
	}
	t, errs := generate.Tenant(doc, space, site)
	if j.diags.Append(errs); j.diags.HasErrors() {
		return
	}
	j.out = &Output{Manifest: j.file, Root: filepath.Dir(j.abs), Within: j.within, Space: space, Tree: t}
}
