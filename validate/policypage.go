package validate

import (
	"strings"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
)

// policyPage checks the path of the page for the host's customers (design
// section 16): a path of .html, of unreserved characters, no segment
// empty or beginning with a dot (no /./, /../ or /.well-known/); a path of
// the site's own, outside the autodisc/ directory the build writes and
// every space the site delegates (a tenant's directory is the tenant's).
func (v *checker) policyPage(m *manifest.Site) {
	p := m.PolicyPage
	if p == "" {
		return
	}
	if why := policyPathProblem(p); why != "" {
		v.err("policy_page", "%q %s: write a path of the site such as /crawler-policy.html", p, why)
		return
	}
	if p == "/autodisc" || strings.HasPrefix(p, "/autodisc/") {
		v.err("policy_page", "%s is under /autodisc/, which the build writes: choose a path of the site's own, such as /crawler-policy.html", p)
		return
	}
	page, err := pathspace.Parse(pathspace.Root(), p)
	if err != nil {
		v.err("policy_page", "%v", err)
		return
	}
	for i, d := range m.Delegations {
		space, err := pathspace.Parse(pathspace.Root(), d.Path)
		if err != nil {
			continue
		}
		if pathspace.Within(space, page) {
			v.err("policy_page", "%s lies in %s, which %s delegates: the page is the host's, so it belongs to a path of the site's own", p, space, manifest.Index("delegations", i))
			return
		}
	}
}

// policyPathProblem says what makes p no path for the policy page, or "".
func policyPathProblem(p string) string {
	if !strings.HasPrefix(p, "/") {
		return "does not begin with /"
	}
	if !strings.HasSuffix(p, ".html") {
		return "does not end in .html"
	}
	for _, seg := range strings.Split(p[1:], "/") {
		switch {
		case seg == "":
			return "has an empty segment"
		case seg[0] == '.':
			return "has a segment that begins with a dot"
		}
		for _, c := range []byte(seg) {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0) {
				return "has a character other than letters, digits and -._~"
			}
		}
	}
	return ""
}
