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
	"net/url"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/output"
	"github.com/discgen/discgen/pathspace"
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
	data, err := output.ReadFileLimited(opt.Manifest, output.MaxManifestSize)
	if err != nil {
		res.Diags.Errorf(diag.Pos{File: opt.Manifest}, "", "%v", readError(err, opt.Manifest))
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
	t, errs := generate.Site(doc, generate.Options{Now: opt.Now, Dir: dir, RobotsSymlink: opt.RobotsSymlink})
	if res.Diags.Append(errs); res.Diags.HasErrors() {
		return res
	}
	res.Site = &Output{Manifest: opt.Manifest, Space: pathspace.Root, Tree: t}
	site, _ := url.Parse(doc.Value.Site.URL)
	tenants(res, doc, dir, site, vopt, opt.Jobs)
	return res
}

// readError drops the host path the OS error repeats.
func readError(err error, name string) string {
	msg := err.Error()
	if strings.HasPrefix(msg, "open "+name+": ") {
		msg = "cannot read manifest: " + strings.TrimPrefix(msg, "open "+name+": ")
	}
	if strings.HasPrefix(msg, name+": ") {
		msg = strings.TrimPrefix(msg, name+": ")
	}
	return msg
}

// tenantJob is one tenant manifest found by a delegation's glob.
type tenantJob struct {
	file    string // as shown in messages
	abs     string // absolute path
	within  string // trusted directory
	grant   validate.FileSet
	space   pathspace.Space // the delegation's space
	tenants string          // manifest path of the tenants key

	out   *Output
	diags diag.List
}

// tenants finds and builds every tenant of the site's delegations.
func tenants(res *Result, doc *manifest.Doc[manifest.Site], dir string, site *url.URL, vopt validate.Options, jobs int) {
	var all []*tenantJob
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
			all = append(all, &tenantJob{file: f.show, abs: f.abs, within: f.within, grant: grant, space: space, tenants: p})
		}
	}
	if len(all) == 0 {
		return
	}
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	work := make(chan *tenantJob)
	var wg sync.WaitGroup
	for range min(jobs, len(all)) {
		wg.Go(func() {
			for j := range work {
				j.run(site, vopt)
			}
		})
	}
	for _, j := range all {
		work <- j
	}
	close(work)
	wg.Wait()

	// Two tenants whose spaces intersect cannot both hold authority
	// there: both are refused.
	var ok []*tenantJob
	for _, j := range all {
		if j.out != nil {
			ok = append(ok, j)
		}
	}
	spaces := make([]pathspace.Space, len(ok))
	for i, j := range ok {
		spaces[i] = j.out.Space
	}
	for _, c := range pathspace.CheckSet(spaces) {
		a, b := ok[c.I], ok[c.J]
		a.conflict(b)
		b.conflict(a)
	}
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

func (j *tenantJob) conflict(other *tenantJob) {
	j.diags.Errorf(diag.Pos{File: j.file}, "path", "%s is also claimed by %s (%s)", j.out.Space, other.file, other.out.Space)
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
