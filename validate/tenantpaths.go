package validate

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
)

// A tenant's path values (icons, feeds, its robots.txt rules and usage
// paths, its delegation paths, and those of its inline delegatees) are
// held to its space. A "." or ".." segment, written plainly or
// percent-encoded, is refused wherever it stands: some readers take it as
// written, others resolve it, and resolved it may leave the space. A
// reference on the site's own origin must resolve inside the space (one
// on another origin, such as an icon on a CDN, is the tenant's to give);
// a robots.txt rule or usage path must match paths of the space (its
// fixed start holds the space's path or is held by it: "/" and
// "/*.pdf" do, as a reader applies the file within the space only,
// "/~bob/" does not). A delegation path is relative to the delegator's
// space, as subdirectories.txt says it (seed 000 section 4.2: "Whether
// they do or not, the path is relative"); one written from "/" is read so
// too and warned, and refused where, read from the site's root, it names a
// tenant's space (/~bob/x/, /~alice/y/): its files would not go where the
// tenant means.

// tenantScope is the space a tenant manifest is held to.
type tenantScope struct {
	space  pathspace.Space
	within pathspace.Space // the delegation the tenant was found under (/~*/)
	base   *url.URL        // the space's URL: relative references resolve against it
}

// placeholderOrigin stands for the site's origin when Options.Site is
// not given: references from "/" are still checked against the space.
var placeholderOrigin = &url.URL{Scheme: "https", Host: "site.invalid"}

func newTenantScope(space, within pathspace.Space, site *url.URL) *tenantScope {
	origin := placeholderOrigin
	if site != nil {
		origin = &url.URL{Scheme: site.Scheme, Host: site.Host}
	}
	base := *origin
	base.Path = space.String()
	return &tenantScope{space: space, within: within, base: &base}
}

// dotSegment returns the first "." or ".." segment of the URL path p, and
// how it is written ("%2e%2E"); "" when it has none.
func dotSegment(p string) (seg, written string) {
	for _, s := range strings.Split(p, "/") {
		d := strings.ReplaceAll(strings.ReplaceAll(s, "%2e", "."), "%2E", ".")
		if d == "." || d == ".." {
			return d, s
		}
	}
	return "", ""
}

func (v *checker) dotSegmentErr(p, s, seg, written string) {
	how := ""
	if written != seg {
		how = fmt.Sprintf(" (written %q)", written)
	}
	v.err(p, "%q has a %q segment%s: a reader may take it as written or resolve it, and a tenant's paths must stay in its space %s; write the path it means", s, seg, how, v.tenant.space)
}

// tenantRef checks a URI reference of a tenant (an icon, a feed URL),
// which uriRef has accepted as u.
func (v *checker) tenantRef(p, s string, u *url.URL) {
	if v.tenant == nil || u == nil {
		return
	}
	if seg, w := dotSegment(u.EscapedPath()); seg != "" {
		v.dotSegmentErr(p, s, seg, w)
		return
	}
	r := v.tenant.base.ResolveReference(u)
	if !strings.EqualFold(r.Host, v.tenant.base.Host) || !v.tenant.space.Literal() {
		return
	}
	if !v.tenant.space.Contains(r.EscapedPath()) {
		at, _ := pathspace.CanonicalPath(r.EscapedPath())
		v.err(p, "%q is %s, outside this tenant's space %s", s, at, v.tenant.space)
	}
}

// tenantRule checks a robots.txt rule or usage path of a tenant: no dot
// segment, and the part before its first wildcard on the space's path.
func (v *checker) tenantRule(p, s string) {
	if v.tenant == nil || !strings.HasPrefix(s, "/") || v.refused(p) {
		return
	}
	path, _, _ := strings.Cut(s, "?")
	if seg, w := dotSegment(path); seg != "" {
		v.dotSegmentErr(p, s, seg, w)
		return
	}
	prefix := s
	if i := strings.IndexAny(prefix, "*$"); i >= 0 {
		prefix = prefix[:i]
	}
	// A rule whose fixed start holds the space's path, or is held by it
	// ("/", "/*.pdf"), matches paths of the space, which is all a reader
	// applies the tenant's robots.txt to; one that parts from it
	// ("/~bob/") names only another's paths.
	c, ok := pathspace.CanonicalPath(prefix)
	sp := v.tenant.space.String()
	if ok && v.tenant.space.Literal() && !strings.HasPrefix(c, sp) && !strings.HasPrefix(sp, c) {
		v.err(p, "%q names no path of this tenant's space %s: its robots.txt speaks for %s alone; start the path with %s", s, sp, sp, sp)
	}
}

// tenantRules checks the rule and usage paths of a tenant's groups.
func (v *checker) tenantRules(ap string, groups []manifest.Group) {
	if v.tenant == nil {
		return
	}
	for i, g := range groups {
		gp := manifest.Index(ap, i)
		for _, l := range []struct {
			key   string
			paths []string
		}{{"allow", g.Allow}, {"disallow", g.Disallow}} {
			for j, s := range l.paths {
				v.tenantRule(manifest.Index(manifest.Key(gp, l.key), j), s)
			}
		}
		if g.Usage != nil {
			pp := manifest.Key(manifest.Key(gp, "usage"), "paths")
			for j, up := range g.Usage.Paths {
				v.tenantRule(manifest.Key(manifest.Index(pp, j), "path"), up.Path)
			}
		}
	}
}

// tenantDelegation checks a tenant's delegation path written from "/"
// (base is the delegator's space: the tenant's, or an inline delegatee's
// within it). Seed 000 reads it relative to base, as discgen always has;
// but where, read from the site's root, it lies in the tenants' own
// delegation (/~bob/x/ or /~alice/y/ under /~*/), the tenant meant a
// place its files do not go, and it is refused. Elsewhere it is warned,
// with the form that says the same without the "/". It reports whether
// the path was refused.
func (v *checker) tenantDelegation(p string, base pathspace.Space, raw string) bool {
	if v.tenant == nil || !strings.HasPrefix(raw, "/") {
		return false
	}
	rel, err := pathspace.Parse(base, raw)
	if err != nil {
		return false // reported as the path's own error
	}
	want, _ := rel.Relative(base)
	want = strings.TrimPrefix(want, "/")
	root, rerr := pathspace.Parse(pathspace.Root(), raw)
	if rerr == nil && root != base && pathspace.Within(base, root) {
		fix, _ := root.Relative(base)
		v.err(p, "%q starts with \"/\", and a tenant's delegation path is relative to its space %s: its files would go to %s; write %s for %s", raw, base, rel, strings.TrimPrefix(fix, "/"), root)
		return true
	}
	if rerr == nil && pathspace.Within(v.tenant.within, root) {
		v.err(p, "%q starts with \"/\" and names %s, in the site's tenants' delegation %s, which a tenant cannot delegate; a tenant's delegation path is relative to its space %s (its files would go to %s)", raw, root, v.tenant.within, base, rel)
		return true
	}
	v.warn(p, "%q is read relative to this tenant's space %s, as subdirectories.txt reads it: its files go to %s; write %s to say so without the \"/\"", raw, base, rel, want)
	return false
}
