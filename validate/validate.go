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
	"net/url"
	"reflect"
	"strings"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/seal"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/pathspace"
)

// Options carries what validation needs besides the manifest.
type Options struct {
	// Now is the time security.txt dates are checked against.
	Now time.Time
	// Site is the site's URL, whose origin a tenant's absolute references
	// are held to its space on; nil checks only its paths from "/".
	Site *url.URL
	// Delegation is the site's delegation a tenant was found under (/~*/),
	// when Tenant is given the tenant's own space (/~alice/): a tenant's
	// delegation path that names a space of it is refused. The zero Space
	// takes Tenant's within.
	Delegation pathspace.Space
}

// MaxDiagnostics bounds the diagnostics one check of a manifest keeps;
// past it they are only counted, and one more diagnostic gives the count.
// A manifest of a hundred thousand bad values gets a report a person can
// read, in memory that does not grow with it. Errors come first: every
// error is kept (up to MaxDiagnostics of them) before any warning, so
// that warnings never push out the reason a manifest is refused, and a
// count of warnings alone is a warning.
const MaxDiagnostics = 1000

// checker collects diagnostics for one manifest file.
type checker struct {
	pos  *manifest.Positions
	opt  Options
	list diag.List
	// errors and warnings count the diagnostics of each severity kept;
	// droppedErrors and droppedWarnings those past MaxDiagnostics.
	errors, warnings               int
	droppedErrors, droppedWarnings int
	// skip holds the paths of values already refused, by the schema or
	// because they could inject a line: no further diagnostic is made
	// about them or anything they hold, as it would only repeat the first.
	skip map[string]bool
	// skipLens holds the lengths of the paths in skip, so that refused
	// looks up only the prefixes that could be there.
	skipLens map[int]bool
	// holds holds the paths of the values that hold one the schema
	// refused: a diagnostic about such a value (a group without names,
	// when its names were of the wrong type) would follow from the
	// refusal, not add to it.
	holds map[string]bool
	// envPath is the path of the applied environment's block, if any.
	envPath string
	// agentNames counts the agent names of the manifest's groups so far
	// (see MaxAgentNames).
	agentNames int
	// tenant, while a tenant manifest is checked, is the space its path
	// values are held to (tenantpaths.go).
	tenant *tenantScope
}

func newChecker(pos *manifest.Positions, invalid map[string]bool, opt Options) *checker {
	v := &checker{pos: pos, opt: opt, skip: map[string]bool{}, skipLens: map[int]bool{}, holds: map[string]bool{}}
	for p := range invalid {
		v.refuse(p)
		// The schema's refusals are left out of the decoded value
		// (manifest.Doc.Invalid): what holds one is checked without it.
		for h := manifest.Parent(p); h != "" && !v.holds[h]; h = manifest.Parent(h) {
			v.holds[h] = true
		}
	}
	return v
}

// refuse marks the value at path as refused.
func (v *checker) refuse(path string) {
	v.skip[path] = true
	v.skipLens[len(path)] = true
}

// refused reports whether the value at path, or one holding it, was
// refused already.
func (v *checker) refused(path string) bool {
	if len(v.skip) == 0 {
		return false
	}
	for p := path; ; p = manifest.Parent(p) {
		if v.skipLens[len(p)] && v.skip[p] {
			return true
		}
		if p == "" {
			return false
		}
	}
}

func (v *checker) add(pos diag.Pos, sev diag.Severity, path, format string, args ...any) {
	if v.refused(path) || v.holds[path] {
		return
	}
	// Each severity is kept up to MaxDiagnostics: finish then drops the
	// warnings that do not fit beside the errors.
	if sev == diag.Error {
		if v.errors >= MaxDiagnostics {
			v.droppedErrors++
			return
		}
		v.errors++
	} else {
		if v.warnings >= MaxDiagnostics {
			v.droppedWarnings++
			return
		}
		v.warnings++
	}
	v.list.Add(diag.Diagnostic{Pos: pos, Severity: sev, Path: path, Message: fmt.Sprintf(format, args...)})
}

// finish sorts the diagnostics, keeps every error and then the first
// warnings, MaxDiagnostics in all, and says how many were left out.
func (v *checker) finish() diag.List {
	v.list.Sort()
	if len(v.list) > MaxDiagnostics {
		room := MaxDiagnostics
		for _, d := range v.list {
			if d.Severity == diag.Error {
				room--
			}
		}
		kept := v.list[:0]
		for _, d := range v.list {
			switch {
			case d.Severity == diag.Error:
			case room > 0:
				room--
			default:
				v.droppedWarnings++
				continue
			}
			kept = append(kept, d)
		}
		clear(v.list[len(kept):])
		v.list = kept
	}
	at := diag.Pos{File: v.pos.File}
	switch e, w := v.droppedErrors, v.droppedWarnings; {
	case e > 0 && w > 0:
		v.list.Add(diag.Diagnostic{Pos: at, Severity: diag.Error,
			Message: fmt.Sprintf("%d more errors and %d more warnings not shown (at most %d diagnostics are reported per manifest)", e, w, MaxDiagnostics)})
	case e > 0:
		v.list.Add(diag.Diagnostic{Pos: at, Severity: diag.Error,
			Message: fmt.Sprintf("%d more errors not shown (at most %d diagnostics are reported per manifest)", e, MaxDiagnostics)})
	case w > 0:
		v.list.Add(diag.Diagnostic{Pos: at, Severity: diag.Warning,
			Message: fmt.Sprintf("%d more warnings not shown (at most %d diagnostics are reported per manifest)", w, MaxDiagnostics)})
	}
	return v.list
}

func (v *checker) err(path, format string, args ...any) {
	v.add(v.pos.Of(path), diag.Error, path, format, args...)
}

func (v *checker) errKey(path, format string, args ...any) {
	v.add(v.pos.KeyOf(path), diag.Error, path, format, args...)
}

func (v *checker) warn(path, format string, args ...any) {
	v.add(v.pos.Of(path), diag.Warning, path, format, args...)
}

func (v *checker) warnKey(path, format string, args ...any) {
	v.add(v.pos.KeyOf(path), diag.Warning, path, format, args...)
}

// Site checks a loaded site manifest, its inline delegatees included.
// When no environment was applied, each environment is also checked as
// it would apply, and what it draws about its own values is reported
// under its own path (environments.staging.agents[0].names[0]).
//
// It returns the manifest's model, which rendering takes, when the
// manifest is valid: it loaded with no error (doc.SchemaOK) and the
// diagnostics hold no error; otherwise the model is nil. Warnings come
// with a model too.
func Site(doc *manifest.Doc[manifest.Site], opt Options) (*model.Site, diag.List) {
	v := newChecker(doc.Pos, doc.Invalid, opt)
	if doc.Env != "" {
		v.envPath = manifest.Key("environments", doc.Env)
	}
	v.lineSafe(doc.Raw, "")
	v.site(doc.Value)
	if doc.Env == "" {
		for _, env := range doc.Environments() {
			v.environment(doc, env)
		}
	}
	list := v.finish()
	if list.HasErrors() || !doc.SchemaOK() || len(doc.Invalid) > 0 {
		return nil, list
	}
	return model.NewSite(seal.New(), doc), list
}

// envDeps lists, for a top-level key, the other keys its checks read: an
// environment that replaces the key has those checked with it.
var envDeps = map[string][]string{
	"data_txt": {"datasets"},
	"datasets": {"data_txt"},
	"agents":   {"usage"}, // starUsage
	"usage":    {"agents"},
}

// environment checks the manifest with env applied, keeping what concerns
// the values env sets. Only the keys the environment replaces (and the
// keys their checks read, envDeps) are checked again, so that checking
// every environment costs in proportion to the environments' blocks, not
// to the manifest times their number.
func (v *checker) environment(doc *manifest.Doc[manifest.Site], env string) {
	ed, errs := doc.WithEnv(env)
	v.list.Append(errs)
	if ed == nil {
		return
	}
	prefix := manifest.Key("environments", env)
	ev := newChecker(ed.Pos, ed.Invalid, v.opt)
	ev.envPath = prefix
	raw, _ := doc.Raw.(map[string]any)
	envs, _ := raw["environments"].(map[string]any)
	block, _ := envs[env].(map[string]any)
	keep := map[string]bool{}
	for key := range block {
		keep[key] = true
		for _, d := range envDeps[key] {
			keep[d] = true
		}
	}
	applied, _ := ed.Raw.(map[string]any)
	sub := map[string]any{}
	for key := range keep {
		if x, ok := applied[key]; ok {
			sub[key] = x
		}
	}
	ev.lineSafe(sub, "") // the base check reported these at the block
	ev.list, ev.errors, ev.warnings, ev.droppedErrors, ev.droppedWarnings = nil, 0, 0, 0, 0
	m := *ed.Value
	keepOnly(reflect.ValueOf(&m).Elem(), keep)
	m.KeepKinds(keep)
	ev.site(&m)
	for _, d := range ev.finish() {
		for key := range block {
			if rest, ok := strings.CutPrefix(d.Path, key); ok && (rest == "" || rest[0] == '.' || rest[0] == '[') {
				d.Path = prefix + "." + d.Path
				v.list.Add(d)
				break
			}
		}
	}
}

// keepOnly empties the lists, mappings and optional blocks of a manifest
// value whose keys are not in keep; other fields are small and stay.
func keepOnly(m reflect.Value, keep map[string]bool) {
	t := m.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue // the kinds' values, kept by KeepKinds
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch f.Type.Kind() {
		case reflect.Slice, reflect.Map, reflect.Pointer:
			if !keep[name] {
				m.Field(i).SetZero()
			}
		}
	}
}

func (v *checker) site(m *manifest.Site) {
	v.siteURL("site.url", m.Site.URL)
	v.description("site.description", m.Site.Description)
	if m.Host != "" {
		v.host("host", m.Host)
	}
	v.agents("agents", m.Agents)
	v.verified(m)
	v.throttle(m)
	v.policyPage(m)
	v.usage("usage", m.Usage)
	v.starUsage("agents", m.Agents, m.Usage)
	v.mobileAgents("mobile_agents", m.MobileAgents)
	v.sitemaps("sitemaps", m.Sitemaps)
	v.sitemapRefs("sitemaps", m.Site.URL, m.Sitemaps)
	v.expects("expect", m.Expect)
	v.icons("icons", m.Icons)
	v.feeds("feeds", m.Feeds)
	v.files("files", m.Files)
	v.delegations("delegations", pathspace.Root(), m.Delegations, AllFiles(), true)
	v.datasets(m)
	if m.WellKnown != nil {
		v.wellKnown("well_known", m)
	}
	v.kinds(m)
	v.rights(m)
}

// Tenant checks a tenant manifest found under the delegation space within,
// which grants it the files in granted. within is the tenant's own space
// (/~alice/, fixed by the directory its manifest was found in) or the
// delegation's pattern (such as /~*/). The tenant's own space is its
// path's: a path that says otherwise is an error; a tenant with no path
// has within, when that is literal. When its path is not valid (an error
// reported here, or by the schema when loading), the rest of the tenant is
// checked against within.
//
// It returns the tenant's model, which rendering takes, in its own space,
// when the tenant is valid: it loaded with no error (doc.SchemaOK) and the
// diagnostics hold no error; otherwise the model is nil.
func Tenant(doc *manifest.Doc[manifest.Tenant], within pathspace.Space, granted FileSet, opt Options) (*model.Tenant, diag.List) {
	v := newChecker(doc.Pos, doc.Invalid, opt)
	v.lineSafe(doc.Raw, "")
	t := doc.Value
	space, ok := within, true
	switch {
	case t.Path == "" && !within.Literal():
		v.err("path", "path is required: %s has a wildcard, so it does not fix which of its directories this tenant has", within)
		ok = false
	case t.Path != "":
		space, ok = v.tenantPath("path", t.Path, within)
	}
	if !ok {
		// Check the rest against the space the tenant was found under,
		// so that one run reports every error.
		space = within
	}
	deleg := opt.Delegation
	if deleg == (pathspace.Space{}) {
		deleg = within
	}
	v.tenant = newTenantScope(space, deleg, opt.Site)
	v.delegatee("", &t.Delegatee, space, granted)
	list := v.finish()
	if list.HasErrors() || !doc.SchemaOK() || len(doc.Invalid) > 0 {
		return nil, list
	}
	return model.NewTenant(seal.New(), doc, space), list
}
