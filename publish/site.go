package publish

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"path"
	"path/filepath"

	"github.com/discgen/discgen/internal/bug"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/output"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tree"
	"github.com/discgen/discgen/validate"
)

// SiteDoc is a loaded, valid site manifest and its rendered tree.
type SiteDoc struct {
	Doc *manifest.Doc[manifest.Site]
	// Model is the manifest's validated model, which rendering takes.
	Model *model.Site
	Tree  tree.Tree
	URL   *url.URL
	// Access is what --server output refuses and marks noindex.
	Access serverconf.Access
	// dir is the manifest's directory; tenants globs are relative to it.
	dir  string
	self confined.Info // the site manifest, which no glob makes a tenant
}

// LoadSite loads, validates and renders the site manifest alone. It
// returns nil when the manifest is invalid, with every diagnostic.
func LoadSite(opt Options) (*SiteDoc, diag.List) {
	var diags diag.List
	data, err := limited.ReadFile(opt.Manifest, manifest.MaxBytes)
	if err != nil {
		diags.Errorf(diag.Pos{File: opt.Manifest}, "", "cannot read manifest: %v", err)
		return nil, diags
	}
	doc, errs := manifest.LoadSite(opt.Manifest, data, opt.Env)
	diags.Append(errs)
	if doc == nil {
		diags.Sort()
		return nil, diags
	}
	vopt := validate.Options{Now: opt.Now}
	m, verrs := validate.Site(doc, vopt)
	if diags.Append(verrs); diags.HasErrors() || m == nil {
		diags.Sort()
		return nil, diags
	}
	dir := filepath.Dir(opt.Manifest)
	s := &SiteDoc{Doc: doc, Model: m, dir: dir}
	if len(opt.Tenants) == 0 && (opt.Shards == 0 || opt.Shard == 1) {
		gopt := generate.Options{Now: opt.Now, Dir: dir, RobotsSymlink: opt.RobotsSymlink, Unsigned: opt.Unsigned}
		var verdicts *verdictFile
		if opt.StateDir != "" && opt.Version != "" && opt.Mode != Render {
			verdicts = loadVerdicts(opt.StateDir, opt.Version)
			gopt.Verdicts = verdicts
		}
		t, errs := generate.Site(m, gopt)
		if verdicts != nil && opt.Mode == Write {
			verdicts.save()
		}
		if diags.Append(errs); diags.HasErrors() {
			diags.Sort()
			return nil, diags
		}
		s.Tree = t
		access, errs := generate.SiteAccess(m)
		diags.Append(errs)
		if len(opt.Server) > 0 {
			_, errs := generate.HeaderUsage(m)
			diags.Append(errs)
			diags.Append(generate.ServerPathWarnings(m))
		}
		s.Access = access
		s.Access.Tenants = s.tenantSpaces()
		verified, errs := generate.SiteVerified(m, dir)
		if diags.Append(errs); diags.HasErrors() {
			diags.Sort()
			return nil, diags
		}
		diags.Append(generate.VerifiedWarnings(m, opt.Server))
		s.Access.Verified = verified
		diags.Append(generate.ThrottleWarnings(m, opt.Server))
		s.Access.Throttle = generate.SiteThrottle(m)
	}
	s.URL, _ = url.Parse(doc.Value.Site.URL)
	s.self = confined.StatPath(opt.Manifest)
	diags.Sort()
	return s, diags
}

// tenantSpaces returns the delegations whose tenants a glob finds, for
// the --server rules of their autodisc files. A delegation refused here
// gets no rule; Run reports why.
func (s *SiteDoc) tenantSpaces() []serverconf.TenantSpace {
	dels, _ := s.delegations()
	var out []serverconf.TenantSpace
	for _, d := range dels {
		glob := path.Join(append([]string{filepath.ToSlash(d.pat.prefix)}, d.pat.segs...)...)
		out = append(out, serverconf.TenantSpace{Space: d.space.String(), Glob: glob})
	}
	return out
}

// serverOnly warns of the manifest's keys that take effect only through
// --server configuration, for a build that writes none: without it,
// noindex and enforce would do nothing, silently.
func (s *SiteDoc) serverOnly() diag.List {
	var l diag.List
	pos := s.Doc.Pos
	if s.Access.Noindex {
		l.Warnf(pos.Of("noindex"), "noindex", "noindex is sent by web server configuration (X-Robots-Tag: noindex), and this build writes none: add --server with your server's kind")
	}
	for i, g := range s.Doc.Value.Agents {
		if g.Enforce {
			path := manifest.Index("agents", i) + ".enforce"
			l.Warnf(pos.Of(path), path, "enforce refuses crawlers through web server configuration, and this build writes none: add --server with your server's kind")
			break
		}
	}
	for i, g := range s.Doc.Value.Agents {
		if g.Throttle != nil {
			path := manifest.Index("agents", i) + ".throttle"
			l.Warnf(pos.KeyOf(path), path, "throttle slows crawlers through web server configuration, and this build writes none: add --server nginx")
			break
		}
	}
	for i, g := range s.Doc.Value.Agents {
		if g.Verified {
			path := manifest.Index("agents", i) + ".verified"
			l.Warnf(pos.KeyOf(path), path, "verified checks crawlers' addresses through web server configuration, and this build writes none: add --server with your server's kind")
			break
		}
	}
	return l
}

// publish writes (or checks) the site's tree and its server configuration.
func (s *SiteDoc) publish(opt Options, diags diag.List, emit func(*Unit)) {
	u := &Unit{Kind: Site, Manifest: opt.Manifest, Dir: opt.Out, Space: "/", Diags: diags}
	var sep tree.Tree
	ok := guarded(u, func() {
		opt.hooks.atStage("site", opt.Out)
		t := s.Tree
		if len(opt.Server) > 0 {
			public, separate, err := serverconf.RenderAccess(t, opt.Server, s.Access)
			if err != nil {
				u.Diags.Errorf(diag.Pos{File: opt.Manifest}, "", "--server: %v", err)
				u.Status = Refused
				return
			}
			t = make(tree.Tree, len(s.Tree)+len(public))
			for p, e := range s.Tree {
				t[p] = e
			}
			for p, e := range public {
				t[p] = e
			}
			sep = separate
			u.Notes = append(u.Notes, serverconf.Warnings(opt.Server, s.Access)...)
		}
		publishRoot(opt, u, opt.Out, t)
	})
	emit(u)
	switch {
	case !ok:
	case len(sep) > 0:
		v := &Unit{Kind: Server, Dir: opt.ServerDir}
		guarded(v, func() { publishRoot(opt, v, opt.ServerDir, sep) })
		emit(v)
	default:
		if v := leftServer(opt); v != nil {
			emit(v)
		}
	}
}

// leftServer removes, when this build writes nothing into
// opt.ServerDir, the server configuration an earlier build with other
// --server kinds wrote there: a web server that includes it would
// otherwise go on sending headers, refusals and redirects for files the
// manifest no longer has, and the same manifest and flags would leave
// different files depending on the builds before. Only what the
// directory's ownership record names goes, as in the output (a file
// edited since is refused, not removed); a directory discgen never wrote
// into, or one where nothing of its is left, gets no unit and no record.
func leftServer(opt Options) *Unit {
	if opt.Mode == Render || opt.ServerDir == "" {
		return nil
	}
	v := &Unit{Kind: Server, Dir: opt.ServerDir}
	owned := true
	guarded(v, func() {
		none := tree.Tree{}
		key := treeKey(opt, none)
		ch, err := output.Plan(opt.ServerDir, none, output.Options{StateDir: opt.StateDir, Replace: opt.Replace, Journals: opt.journals, Key: key})
		// Nothing to remove (a record naming files since deleted, or a
		// directory gone) is no unit either, and creates nothing.
		if err != nil || !ch.Owned() || ch.Empty() && ch.Err() == nil {
			if ch != nil {
				ch.Close()
			}
			owned = false
			return
		}
		finish(opt, v, none, func(output.Options) (*output.Changes, error) { return ch, nil })
	})
	if !owned {
		return nil
	}
	return v
}

// guarded runs fn, which builds u, and reports whether it returned: a
// panic in it refuses u as a bug in discgen (see refuseAsBug), and the
// build goes on with the tenants.
func guarded(u *Unit, fn func()) (ok bool) {
	defer func() {
		if v := recover(); v != nil {
			refuseAsBug(u, bug.Text(v))
		}
	}()
	fn()
	return true
}

// publishRoot writes (or checks) t into root for u, unless a build finds
// root as the last build with the same tree left it: then output.Fresh
// (a stat per output, no read) settles u as Unchanged, as a tenant's are
// skipped. A site with thousands of inline delegatees would otherwise read
// and hash every output on every build. Only a build skips on its word:
// --check and --dry-run compare the bytes whatever the state directory
// holds.
func publishRoot(opt Options, u *Unit, root string, t tree.Tree) {
	key := treeKey(opt, t)
	if opt.Mode == Write {
		if ok, err := output.Fresh(root, output.Options{StateDir: opt.StateDir, Key: key}); ok && err == nil {
			u.Status = Unchanged
			u.Result.Unchanged = len(t)
			return
		}
	}
	finish(opt, u, t, func(o output.Options) (*output.Changes, error) {
		if root == opt.Out {
			opt.hooks.atPlanSite(root)
		}
		o.Key = key
		return output.Plan(root, t, o)
	})
}

// treeKey fingerprints what a root gets: every path with its bytes or
// link, discgen's version and --replace.
func treeKey(opt Options, t tree.Tree) string {
	h := sha256.New()
	fmt.Fprintf(h, "tree 1\n%s\n%t\n", opt.Version, opt.Replace)
	for _, p := range t.Paths() {
		e := t[p]
		fmt.Fprintf(h, "%d %s %d %s\n", len(p), p, len(e.Link), e.Link)
		fmt.Fprintf(h, "%d\n", len(e.Data))
		h.Write(e.Data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// finish plans (and in Write mode applies) one tree, setting the unit's
// status.
func finish(opt Options, u *Unit, t tree.Tree, plan func(output.Options) (*output.Changes, error)) {
	if opt.Mode == Render {
		u.Tree = t
		u.Status = Built
		return
	}
	ch, err := plan(output.Options{StateDir: opt.StateDir, Replace: opt.Replace, Journals: opt.journals})
	if err != nil {
		u.Problem = err
		u.Status = Refused
		return
	}
	if opt.Mode != Write {
		u.Changes = ch
		u.Problem = ch.Err()
		switch {
		case u.Problem != nil:
			u.Status = Refused
		case ch.Empty():
			u.Status = Unchanged
		default:
			u.Status = Built
		}
		return
	}
	r, err := opt.writer.Apply(ch)
	settle(u, r, err)
}

// settle sets a unit's status from what Apply did.
func settle(u *Unit, r output.Result, err error) {
	u.Result = r
	switch {
	case err != nil:
		fail(u, err)
	case r.Added+r.Updated+r.Removed+r.Adopted == 0:
		u.Status = Unchanged
	default:
		u.Status = Built
	}
}

// fail ends u for err: refused, or skipped when err defers it to the
// next build (a lock its owner holds) or to root's (its state not
// provisioned).
func fail(u *Unit, err error) {
	u.Problem = err
	u.Status = Refused
	var de *output.DeferredError
	var np *notProvisionedError
	if errors.As(err, &de) || errors.As(err, &np) {
		u.Status = Skipped
	}
	u.NotProvisioned = np != nil
}

// defaultJobs is the most workers a build starts unless Options.Jobs
// says otherwise.
const defaultJobs = 64

// errNoDelegation is reported for a --tenant file no glob matches.
var errNoDelegation = errors.New("no delegation's tenants glob matches this file")

// delegations collects the site's delegations that have a tenants glob,
// refusing (with an error at the tenants key) those whose glob cannot be
// walked or cannot fill the delegation's wildcards.
func (s *SiteDoc) delegations() ([]*delegation, diag.List) {
	var out []*delegation
	var diags diag.List
	doc := s.Doc
	for i, d := range doc.Value.Delegations {
		if d.Tenants == "" {
			continue
		}
		key := manifest.Key(manifest.Index("delegations", i), "tenants")
		pos := doc.Pos.Of(key)
		space, err := pathspace.Parse(pathspace.Root(), d.Path)
		if err != nil {
			continue // validation has reported it
		}
		pat, err := parsePattern(s.dir, d.Tenants)
		if err != nil {
			diags.Errorf(pos, key, "%v", err)
			continue
		}
		if want := countStars(d.Path); pat.stars != want {
			diags.Errorf(pos, key, "%q has %d '*' but the delegation path %q has %d: each '*' the glob matches fills the path's '*' in the same place, so they must be as many; no tenant of this delegation is built", d.Tenants, pat.stars, d.Path, want)
			continue
		}
		nd := &delegation{
			index: i, key: key, path: d.Path, space: space, pat: pat,
			grant:  validate.Grant(validate.AllFiles(), d.Only, d.Except),
			limits: limitsOf(d, i),
		}
		nd.summary = fmt.Sprintf("%q %q %q %q %s", d.Path, d.Only, d.Except, d.Tenants, nd.limits)
		// Two globs whose tenant directories can coincide or nest would
		// write one tree over another: the later one is refused.
		clash := false
		for _, o := range out {
			if dirsCanMeet(o.pat, pat) {
				diags.Errorf(pos, key, "the directories %q matches can be those of %s (%q), or hold them; a directory holds the tenant of one delegation", d.Tenants, o.key, o.pat.raw)
				clash = true
				break
			}
		}
		if !clash {
			out = append(out, nd)
		}
	}
	return out, diags
}

func countStars(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '*' {
			n++
		}
	}
	return n
}
