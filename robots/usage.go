package robots

import (
	"fmt"
	"slices"
	"strings"

	"github.com/discgen/discgen/aipref"
)

// Usage preferences say what may be done with what a crawler fetched;
// Allow and Disallow say only what it may fetch. The vocabulary and its
// two forms are package aipref's; this file attaches them to robots.txt
// groups, as draft-ietf-aipref-attach-05 section 4 says for Content-Usage
// (a rule, optionally with a path: "Content-Usage: /blog/ train-ai=y")
// and contentsignals.org for Content-Signal (a path-less line).
//
// The forms differ in what they can say: Content-Signal has no path and
// aipref (vocab-07) has no category for ai-input. No form says what the
// manifest does not: a category a path overrides is left out of
// Content-Signal (Usage.SignalPrefs), rather than said there for every
// path, and a reader of both forms (a "no" in either wins) reads each
// path's value from Content-Usage alone.

// UsagePath is a path-scoped preference: Prefs, over the group's, for the
// URLs the path matches (longest match, as Allow and Disallow).
type UsagePath struct {
	Path  string
	Prefs aipref.Prefs
}

// Usage is what one group says about the use of what its crawlers fetch.
type Usage struct {
	Prefs aipref.Prefs
	Paths []UsagePath
	// Use is Content-Signal's "use" value (immediate, reference or
	// full), "" for none; Content-Usage has no such key.
	Use string
	// ContentUsage and ContentSignal choose the forms written.
	ContentUsage, ContentSignal bool
}

// IsZero reports whether u states no preference at all.
func (u *Usage) IsZero() bool {
	if u == nil {
		return true
	}
	if !u.Prefs.IsZero() || u.Use != "" {
		return false
	}
	for _, p := range u.Paths {
		if !p.Prefs.IsZero() {
			return false
		}
	}
	return true
}

// Lines returns the preference lines a group with u carries: the group's
// Content-Usage, one Content-Usage per path (by path, shortest first, its
// preferences over the group's), then Content-Signal (SignalPrefs: the
// group's preferences no path overrides). A path that says what the group
// says is not written unless a shorter path it may lie under says
// otherwise: a reader of Content-Usage would read that one there.
func (u *Usage) Lines() []string {
	if u == nil {
		return nil
	}
	var out []string
	if u.ContentUsage {
		base := aipref.UsageValue(u.Prefs)
		if base != "" {
			out = append(out, "Content-Usage: "+base)
		}
		paths := u.sortedPaths()
		for i, p := range paths {
			v := aipref.UsageValue(p.Prefs.Over(u.Prefs))
			if v == "" || v == base && !u.shadows(paths[:i], p.Path, base) {
				continue
			}
			out = append(out, "Content-Usage: "+Canonical(p.Path)+" "+v)
		}
	}
	if u.ContentSignal {
		v := aipref.SignalValue(u.SignalPrefs())
		if u.Use != "" {
			v = strings.TrimPrefix(v+", use="+u.Use, ", ")
		}
		if v != "" {
			out = append(out, "Content-Signal: "+v)
		}
	}
	return out
}

// shadows reports whether one of shorter, whose Content-Usage value is not
// base, may match a URL that path matches.
func (u *Usage) shadows(shorter []UsagePath, path, base string) bool {
	for _, q := range shorter {
		if aipref.UsageValue(q.Prefs.Over(u.Prefs)) != base && MayOverlap(Canonical(q.Path), Canonical(path)) {
			return true
		}
	}
	return false
}

// MayOverlap reports whether two path patterns (both canonical, or both
// as written) may match one URL path: one's literal start (up to its
// first "*" or "$") begins the other's. It may say true where they
// cannot; never false where they can.
func MayOverlap(a, b string) bool {
	lit := func(p string) string {
		if i := strings.IndexAny(p, "*$"); i >= 0 {
			return p[:i]
		}
		return p
	}
	a, b = lit(a), lit(b)
	return strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}

// SignalPrefs returns the group's preferences Content-Signal says: those
// no path overrides with another value. Content-Signal has no path, so a
// value it gave would be read on every path, the overriding ones too; a
// category left out is one Content-Signal says nothing about, and
// SignalLeftOut names it.
func (u *Usage) SignalPrefs() aipref.Prefs {
	if u == nil {
		return aipref.Prefs{}
	}
	p := u.Prefs
	for _, c := range u.SignalLeftOut() {
		c.Set(&p, aipref.PrefUnset)
	}
	return p
}

// SignalLeftOut returns the categories some path of u states with a value
// other than the group's: Content-Signal, which has no path, says nothing
// of them.
func (u *Usage) SignalLeftOut() []aipref.Category {
	if u == nil {
		return nil
	}
	var out []aipref.Category
	for _, c := range aipref.Categories {
		for _, p := range u.sortedPaths() {
			if v := c.Get(p.Prefs); v != aipref.PrefUnset && v != c.Get(u.Prefs) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// Unwritable returns the canonical paths of u that Content-Usage cannot
// say: a path that states nothing Content-Usage can say (train_ai or
// search, its own or the group's) has no line, so a reader of Content-Usage
// reads there the preferences of a path it lies under (first, that path).
func (u *Usage) Unwritable() (path, under string) {
	if u == nil {
		return "", ""
	}
	paths := u.sortedPaths()
	for i, p := range paths {
		if aipref.UsageValue(p.Prefs.Over(u.Prefs)) != "" {
			continue
		}
		for _, q := range paths[:i] {
			if aipref.UsageValue(q.Prefs.Over(u.Prefs)) != "" && MayOverlap(Canonical(q.Path), Canonical(p.Path)) {
				return Canonical(p.Path), Canonical(q.Path)
			}
		}
		for _, q := range paths[i+1:] { // as long, with a wildcard
			if len(Canonical(q.Path)) > len(Canonical(p.Path)) {
				break
			}
			if aipref.UsageValue(q.Prefs.Over(u.Prefs)) != "" && MayOverlap(Canonical(q.Path), Canonical(p.Path)) {
				return Canonical(p.Path), Canonical(q.Path)
			}
		}
	}
	return "", ""
}

// sortedPaths returns the path-scoped preferences by canonical path,
// shorter first, then by text; for a path given twice, the last.
func (u *Usage) sortedPaths() []UsagePath {
	byPath := map[string]UsagePath{}
	for _, p := range u.Paths {
		byPath[Canonical(p.Path)] = p
	}
	keys := make([]string, 0, len(byPath))
	for k := range byPath {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	out := make([]UsagePath, len(keys))
	for i, k := range keys {
		out[i] = byPath[k]
	}
	return out
}

// Effective returns the preferences u gives a URL path: the group's,
// under those of the longest path-scoped preference matching it (RFC 9309
// matching, as draft-ietf-aipref-attach-05 section 4.1 asks), and the
// path that decided ("" for the group's own).
func (u *Usage) Effective(path string) (aipref.Prefs, string) {
	if u == nil {
		return aipref.Prefs{}, ""
	}
	path = Canonical(path)
	var m matcher
	best, bestLen := -1, -1
	for i, p := range u.Paths {
		cp := Canonical(p.Path)
		if cp != "" && len(cp) >= bestLen && m.match(path, cp) {
			best, bestLen = i, len(cp)
		}
	}
	if best < 0 {
		return u.Prefs, ""
	}
	return u.Paths[best].Prefs.Over(u.Prefs), Canonical(u.Paths[best].Path)
}

// Agrees reports whether u and v give category c the same value at every
// URL path. It may say false where they do (paths that change nothing
// count), never true where they do not.
func (u *Usage) Agrees(v *Usage, c aipref.Category) bool { return u.profile(c) == v.profile(c) }

// profile describes the value u gives c at each URL path: the group's
// alone when no path changes it, else the group's and each path's.
func (u *Usage) profile(c aipref.Category) string {
	if u == nil {
		return aipref.PrefUnset.String()
	}
	d := c.Get(u.Prefs)
	var b strings.Builder
	constant := true
	for _, p := range u.sortedPaths() {
		v := c.Get(p.Prefs.Over(u.Prefs))
		constant = constant && v == d
		fmt.Fprintf(&b, " %s=%s", Canonical(p.Path), v)
	}
	if constant {
		return d.String()
	}
	return d.String() + b.String()
}

// Without returns a copy of u that states nothing of the categories cs,
// nil when it then states nothing.
func (u *Usage) Without(cs ...aipref.Category) *Usage {
	c := u.clone()
	if c == nil {
		return nil
	}
	for _, cat := range cs {
		cat.Set(&c.Prefs, aipref.PrefUnset)
		for i := range c.Paths {
			cat.Set(&c.Paths[i].Prefs, aipref.PrefUnset)
		}
	}
	if c.IsZero() {
		return nil
	}
	return c
}

// clone returns a copy of u that shares nothing with it.
func (u *Usage) clone() *Usage {
	if u == nil {
		return nil
	}
	c := *u
	c.Paths = slices.Clone(u.Paths)
	return &c
}

// checkUsage reports the first value of u that Emit cannot write.
func checkUsage(field string, u *Usage) error {
	if u == nil {
		return nil
	}
	for i, p := range u.Paths {
		f := fmt.Sprintf("%s.paths[%d].path", field, i)
		if err := lineSafe(p.Path); err != "" {
			return &PolicyError{Field: f, Value: p.Path, Msg: strings.TrimSuffix(err, "; ")}
		}
		if !strings.HasPrefix(p.Path, "/") || strings.ContainsAny(p.Path, " \t") {
			return &PolicyError{Field: f, Value: p.Path, Msg: "a Content-Usage path starts with / and has no spaces"}
		}
	}
	return nil
}
