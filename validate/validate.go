// Package validate applies the semantic rules of a discgen manifest that a
// JSON Schema cannot express: product tokens, URL and path shapes, feed
// types, autodisc and well-known names, security.txt dates, delegation
// escape and overlap, and the rule that no value can inject a line.
//
// Validation works per authority unit: the site manifest (with its inline
// delegatees) and each tenant manifest are checked on their own, so one
// bad tenant never hides another's errors or blocks its build.
package validate

import (
	"fmt"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
)

// Options carries what validation needs besides the manifest.
type Options struct {
	// Now is the time security.txt dates are checked against.
	Now time.Time
}

// checker collects diagnostics for one manifest file.
type checker struct {
	pos  *manifest.Positions
	opt  Options
	list diag.List
}

func (v *checker) err(path, format string, args ...any) {
	v.list.Add(diag.Diagnostic{Pos: v.pos.Of(path), Path: path, Message: fmt.Sprintf(format, args...)})
}

func (v *checker) errKey(path, format string, args ...any) {
	v.list.Add(diag.Diagnostic{Pos: v.pos.KeyOf(path), Path: path, Message: fmt.Sprintf(format, args...)})
}

func (v *checker) warn(path, format string, args ...any) {
	v.list.Add(diag.Diagnostic{Pos: v.pos.Of(path), Severity: diag.Warning, Path: path, Message: fmt.Sprintf(format, args...)})
}

// Site checks a loaded site manifest, its inline delegatees included.
func Site(doc *manifest.Doc[manifest.Site], opt Options) diag.List {
	v := &checker{pos: doc.Pos, opt: opt}
	m := doc.Value
	v.lineSafe(doc.Raw, "")
	base := v.siteURL("site.url", m.Site.URL)
	v.description("site.description", m.Site.Description)
	if m.Host != "" {
		v.host("host", m.Host)
	}
	v.agents("agents", m.Agents)
	v.mobileAgents("mobile_agents", m.MobileAgents)
	v.sitemaps("sitemaps", m.Sitemaps)
	v.expects("expect", m.Expect)
	v.icons("icons", m.Icons, base)
	v.feeds("feeds", m.Feeds, base)
	v.files("files", m.Files)
	v.delegations("delegations", pathspace.Root, m.Delegations, AllFiles(), true)
	v.datasets(m)
	if m.WellKnown != nil {
		v.wellKnown("well_known", m.WellKnown)
	}
	v.list.Sort()
	return v.list
}

// Tenant checks a tenant manifest found under the delegation space within
// (such as /~*/), which grants it the files in granted. It returns the
// tenant's own space when its path is valid.
func Tenant(doc *manifest.Doc[manifest.Tenant], within pathspace.Space, granted FileSet, opt Options) (pathspace.Space, diag.List) {
	v := &checker{pos: doc.Pos, opt: opt}
	v.lineSafe(doc.Raw, "")
	t := doc.Value
	space, ok := v.tenantPath("path", t.Path, within)
	if ok {
		v.delegatee("", &t.Delegatee, space, granted)
	}
	v.list.Sort()
	return space, v.list
}
