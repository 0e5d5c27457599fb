// Package generate renders validated manifests into in-memory output trees:
// robots.txt, each authority's autodisc/ directory with its index.txt,
// data.txt and .well-known/. It writes nothing to disk.
//
// It takes a manifest's model (package model), which only validation
// makes: validate.Site's or validate.Tenant's. It imports no validate.
//
// Rendering works per authority unit. Site renders the site manifest and
// its inline delegatees into the tree of the output directory; Tenant
// renders one tenant manifest into the tree of that tenant's own
// directory. Output bytes depend only on the manifest, the source files it
// names and Options.Now: lists keep manifest order where the order has a
// meaning (icons, feeds, rules after the portable ordering) and are sorted
// otherwise (index.txt, x- files).
package generate

import (
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/rfc8615"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/tree"
)

// MaxSourceBytes bounds a file a manifest includes with source.
const MaxSourceBytes = 1 << 20

// Options carries what rendering needs besides the manifest.
type Options struct {
	// Now resolves security.txt durations such as "180d".
	Now time.Time
	// Dir is the directory that source paths are relative to: the
	// manifest's own directory.
	Dir string
	// RobotsSymlink makes autodisc/robots.txt a symbolic link to
	// /robots.txt instead of a copy of its bytes.
	RobotsSymlink bool
	// LookupEnv reads the environment variable a security.txt sign block
	// names (key_env); nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Unsigned leaves security.txt unsigned whatever its sign block says,
	// for callers that read other files only.
	Unsigned bool
	// Verdicts, when set, keeps the well-known files found valid
	// against their schemas from one build to the next (see Verdicts).
	Verdicts Verdicts
}

// Site renders a validated site manifest and its inline delegatees.
func Site(s *model.Site, opt Options) (tree.Tree, diag.List) {
	doc := s.Doc()
	var errs diag.List
	m := doc.Value
	t := tree.Tree{}
	base, err := url.Parse(m.Site.URL)
	if err != nil {
		errs.Errorf(doc.Pos.Of("site.url"), "site.url", "%v", err)
		return nil, errs
	}

	robotsTxt, rerrs := siteRobots(doc)
	errs.Append(rerrs)
	if robotsTxt != nil {
		put(t, "robots.txt", robotsTxt, &errs)
	}
	root := &autodiscDir{space: pathspace.Root(), base: base, body: &manifest.Delegatee{
		Description: m.Site.Description,
		Icons:       m.Icons,
		Feeds:       m.Feeds,
		Delegations: m.Delegations,
		Files:       m.Files,
	}, robots: robotsTxt, robotsLink: opt.RobotsSymlink}
	if err := root.render(t); err != nil {
		errs.Errorf(diag.Pos{File: doc.Pos.File}, "", "%v", err)
	}
	dirs := map[string]string{}
	errs.Append(inlines(t, doc.Pos, "delegations", pathspace.Root(), base, m.Delegations, dirs))

	data, err := dataTxt(m, base)
	if err != nil {
		errs.Errorf(doc.Pos.Of("datasets"), "datasets", "%v", err)
	} else if data != nil {
		put(t, "data.txt", data, &errs)
	}
	if m.WellKnown != nil {
		md := &manifestDir{dir: opt.Dir}
		errs.Append(wellKnownFiles(t, doc.Pos, m, opt, md))
		md.close()
	}
	errs.Append(sectionFiles(t, doc.Pos, m, opt))
	if m.License != nil || m.TDM != nil {
		md := &manifestDir{dir: opt.Dir}
		errs.Append(rightsFiles(t, doc.Pos, m, md))
		md.close()
	}
	errs.Append(checkDirs(t, doc.Pos, dirs, ""))
	errs.Append(policyPageFile(t, doc.Pos, m, opt.Now))
	if errs.HasErrors() {
		return nil, errs
	}
	return t, errs
}

func put(t tree.Tree, p string, data []byte, errs *diag.List) {
	if err := t.Put(p, data); err != nil {
		errs.Errorf(diag.Pos{}, "", "%v", err)
	}
}

// inlines renders the inline delegatees of a list of delegations, at any
// depth, each into the directory that serves its space, and records in
// dirs that directory and the manifest path of its delegation.
func inlines(t tree.Tree, pos *manifest.Positions, path string, base pathspace.Space, site *url.URL, dels []manifest.Delegation, dirs map[string]string) diag.List {
	var errs diag.List
	for i, d := range dels {
		if d.Inline == nil {
			continue
		}
		dp := manifest.Index(path, i)
		space, err := pathspace.Parse(base, d.Path)
		if err != nil {
			errs.Errorf(pos.Of(manifest.Key(dp, "path")), manifest.Key(dp, "path"), "%v", err)
			continue
		}
		dirs[dirOf(space)] = dp
		a, err := delegateeDir(space, site, d.Inline, dirOf(space))
		if err == nil {
			err = a.render(t)
		}
		if err != nil {
			errs.Errorf(pos.Of(dp), dp, "%v", err)
			continue
		}
		errs.Append(inlines(t, pos, manifest.Key(manifest.Key(dp, "inline"), "delegations"), space, site, d.Inline.Delegations, dirs))
	}
	return errs
}

// delegateeDir prepares a delegatee's autodisc directory; relative URIs
// resolve against the URL of its space.
func delegateeDir(space pathspace.Space, site *url.URL, body *manifest.Delegatee, dir string) (*autodiscDir, error) {
	base, err := url.Parse(site.Scheme + "://" + site.Host + space.String())
	if err != nil {
		return nil, err
	}
	a := &autodiscDir{dir: dir, space: space, base: base, body: body}
	if len(body.Agents) > 0 {
		r, err := emitRobots(body.Agents, nil, nil, "")
		if err != nil {
			return nil, err
		}
		a.robots = r
	}
	return a, nil
}

// Tenant renders a validated tenant manifest into a tree rooted at the
// tenant's own directory, that of its space (it holds autodisc/ and, for
// inline delegatees, their directories below it).
func Tenant(m *model.Tenant, site *url.URL) (tree.Tree, diag.List) {
	doc, space := m.Doc(), m.Space()
	var errs diag.List
	t := tree.Tree{}
	a, err := delegateeDir(space, site, &doc.Value.Delegatee, "")
	if err == nil {
		err = a.render(t)
	}
	if err != nil {
		errs.Errorf(diag.Pos{File: doc.Pos.File}, "", "%v", err)
		return nil, errs
	}
	// Inline delegatees of a tenant render below the tenant's directory,
	// at their path relative to the tenant's space.
	sub := tree.Tree{}
	dirs := map[string]string{}
	errs.Append(inlines(sub, doc.Pos, "delegations", space, site, doc.Value.Delegations, dirs))
	prefix := dirOf(space) + "/"
	for p, e := range sub {
		if len(p) > len(prefix) && p[:len(prefix)] == prefix {
			t[p[len(prefix):]] = e
		}
	}
	errs.Append(checkDirs(t, doc.Pos, dirs, prefix))
	if errs.HasErrors() {
		return nil, errs
	}
	return t, errs
}

// checkDirs reports an inline delegatee whose autodisc directory lies
// below a file of the tree, as when "/robots.txt/" is delegated inline:
// the tree cannot hold both. dirs maps each delegatee's directory, with
// prefix in front, to the manifest path of its delegation.
func checkDirs(t tree.Tree, pos *manifest.Positions, dirs map[string]string, prefix string) diag.List {
	var errs diag.List
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		d := strings.TrimPrefix(dir, prefix) + "/autodisc"
		for q := d; q != "."; q = path.Dir(q) {
			if _, file := t[q]; file {
				dp := dirs[dir]
				errs.Errorf(pos.Of(manifest.Key(dp, "path")), manifest.Key(dp, "path"), "the delegatee's files go in %s/, but %s is a file", d, q)
				break
			}
		}
	}
	return errs
}

// wellKnownFiles renders the files of well_known.files (security.txt and
// the other kinds: sectionFiles).
func wellKnownFiles(t tree.Tree, pos *manifest.Positions, m *manifest.Site, opt Options, md *manifestDir) diag.List {
	var errs diag.List
	wk := m.WellKnown
	sc := &schemas{compiled: map[string]*kit.Schema{}, texts: map[string][]byte{}, verdicts: opt.Verdicts}
	for i, f := range wk.Files {
		fp := manifest.Index("well_known.files", i)
		var data []byte
		if f.Content != nil {
			data = []byte(*f.Content)
		} else {
			var err error
			data, err = md.read(f.Source, MaxSourceBytes)
			if err != nil {
				errs.Errorf(pos.Of(manifest.Key(fp, "source")), manifest.Key(fp, "source"), "cannot read %q: %v", f.Source, err)
				continue
			}
		}
		errs.Append(checkSchema(pos, fp, f, data, md, sc))
		name, err := rfc8615.FileName(f.Name)
		if err != nil {
			errs.Errorf(pos.Of(manifest.Key(fp, "name")), manifest.Key(fp, "name"), "%v", err)
			continue
		}
		if err := t.Put(".well-known/"+name, data); err != nil {
			// Two names that validation tells apart can name one file.
			errs.Errorf(pos.Of(manifest.Key(fp, "name")), manifest.Key(fp, "name"), "%v", err)
		}
	}
	return errs
}
