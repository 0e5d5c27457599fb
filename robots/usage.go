package robots

import (
	"fmt"
	"slices"
	"strings"
)

// Usage preferences say what may be done with what a crawler fetched;
// Allow and Disallow say only what it may fetch. Two wire forms carry them
// in robots.txt and both are written:
//
//   - Content-Usage, from the IETF AI Preferences drafts
//     draft-ietf-aipref-attach-05 (the rule, optionally with a path, and
//     the HTTP header) and draft-ietf-aipref-vocab-07 (the categories
//     train-ai and search, the values y and n, and the value format: an
//     RFC 9651 structured-field dictionary). "Content-Usage: train-ai=n"
//     or "Content-Usage: /blog/ train-ai=y".
//   - Content-Signal, from contentsignals.org and
//     draft-romm-aipref-contentsignals-00: the categories search, ai-input
//     and ai-train, the values yes and no, no path.
//     "Content-Signal: search=yes, ai-input=yes, ai-train=no".
//
// The forms differ in what they can say: Content-Signal has no path and
// aipref (vocab-07) has no category for ai-input. Usage.Unsaid lists what
// a usage cannot say in the forms it is written in, for a warning.

// Pref is one preference: not stated, yes (allowed) or no.
type Pref uint8

const (
	PrefUnset Pref = iota
	PrefYes
	PrefNo
)

func (p Pref) String() string {
	switch p {
	case PrefYes:
		return "yes"
	case PrefNo:
		return "no"
	}
	return "unset"
}

// PrefOf returns the preference a manifest word states: "yes", "no", and
// anything else (an absent preference) unset.
func PrefOf(word string) Pref {
	switch word {
	case "yes":
		return PrefYes
	case "no":
		return PrefNo
	}
	return PrefUnset
}

// Prefs holds a preference for each category discgen knows.
type Prefs struct {
	TrainAI, Search, AIInput Pref
}

// PrefsOf returns the preferences the manifest words train, search and
// input state, each read by PrefOf.
func PrefsOf(train, search, input string) Prefs {
	return Prefs{TrainAI: PrefOf(train), Search: PrefOf(search), AIInput: PrefOf(input)}
}

// IsZero reports whether no preference is stated.
func (p Prefs) IsZero() bool { return p == Prefs{} }

// Over returns p with base's preferences where p states none.
func (p Prefs) Over(base Prefs) Prefs {
	if p.TrainAI == PrefUnset {
		p.TrainAI = base.TrainAI
	}
	if p.Search == PrefUnset {
		p.Search = base.Search
	}
	if p.AIInput == PrefUnset {
		p.AIInput = base.AIInput
	}
	return p
}

// String gives the stated preferences in the manifest's words, such as
// "train_ai=no, search=yes", or "none".
func (p Prefs) String() string {
	var parts []string
	for _, c := range Categories {
		if v := c.get(p); v != PrefUnset {
			parts = append(parts, c.Manifest+"="+v.String())
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// Category is one category of use and its label in each form; an empty
// label means the form has no such category.
type Category struct {
	Manifest      string // the manifest's key: train_ai
	ContentUsage  string // draft-ietf-aipref-vocab-07 label: train-ai
	ContentSignal string // contentsignals.org label: ai-train
	get           func(Prefs) Pref
	set           func(*Prefs, Pref)
}

// Get returns p's preference for the category.
func (c Category) Get(p Prefs) Pref { return c.get(p) }

// Categories are the categories discgen writes, in the order Content-Usage
// values list them (the vocabulary's table order); Content-Signal values
// use signalOrder.
var Categories = []Category{
	{"train_ai", "train-ai", "ai-train", func(p Prefs) Pref { return p.TrainAI }, func(p *Prefs, v Pref) { p.TrainAI = v }},
	{"search", "search", "search", func(p Prefs) Pref { return p.Search }, func(p *Prefs, v Pref) { p.Search = v }},
	{"ai_input", "", "ai-input", func(p Prefs) Pref { return p.AIInput }, func(p *Prefs, v Pref) { p.AIInput = v }},
}

// signalOrder is the order of contentsignals.org's example policy:
// search, ai-input, ai-train.
var signalOrder = []int{1, 2, 0}

// ContentUsageValue returns the Content-Usage dictionary for p
// ("train-ai=n, search=y"), or "" when p states nothing aipref can say.
func ContentUsageValue(p Prefs) string {
	var parts []string
	for _, c := range Categories {
		if v := c.get(p); v != PrefUnset && c.ContentUsage != "" {
			parts = append(parts, c.ContentUsage+"="+map[Pref]string{PrefYes: "y", PrefNo: "n"}[v])
		}
	}
	return strings.Join(parts, ", ")
}

// ContentSignalValue returns the Content-Signal value for p
// ("search=yes, ai-train=no"), or "" when p states nothing.
func ContentSignalValue(p Prefs) string {
	var parts []string
	for _, i := range signalOrder {
		c := Categories[i]
		if v := c.get(p); v != PrefUnset {
			parts = append(parts, c.ContentSignal+"="+v.String())
		}
	}
	return strings.Join(parts, ", ")
}

// UsagePath is a path-scoped preference: Prefs, over the group's, for the
// URLs the path matches (longest match, as Allow and Disallow).
type UsagePath struct {
	Path  string
	Prefs Prefs
}

// Usage is what one group says about the use of what its crawlers fetch.
type Usage struct {
	Prefs Prefs
	Paths []UsagePath
	// ContentUsage and ContentSignal choose the forms written.
	ContentUsage, ContentSignal bool
}

// IsZero reports whether u states no preference at all.
func (u *Usage) IsZero() bool {
	if u == nil {
		return true
	}
	if !u.Prefs.IsZero() {
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
// preferences over the group's; a path that says what the group says is
// not written), then Content-Signal.
func (u *Usage) Lines() []string {
	if u == nil {
		return nil
	}
	var out []string
	if u.ContentUsage {
		base := ContentUsageValue(u.Prefs)
		if base != "" {
			out = append(out, "Content-Usage: "+base)
		}
		for _, p := range u.sortedPaths() {
			if v := ContentUsageValue(p.Prefs.Over(u.Prefs)); v != "" && v != base {
				out = append(out, "Content-Usage: "+Canonical(p.Path)+" "+v)
			}
		}
	}
	if u.ContentSignal {
		if v := ContentSignalValue(u.Prefs); v != "" {
			out = append(out, "Content-Signal: "+v)
		}
	}
	return out
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
func (u *Usage) Effective(path string) (Prefs, string) {
	if u == nil {
		return Prefs{}, ""
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

// Unsaid returns what u states that its forms cannot say: "ai_input" when
// Content-Usage is the only form (aipref has no such category), "paths"
// when Content-Signal is the only form (it has no path). With both forms,
// ai_input is still said by Content-Signal only and paths by Content-Usage
// only; a preference neither form can carry is listed too.
func (u *Usage) Unsaid() []string {
	if u == nil {
		return nil
	}
	var out []string
	hasInput := u.Prefs.AIInput != PrefUnset
	hasPaths := false
	for _, p := range u.Paths {
		hasInput = hasInput || p.Prefs.AIInput != PrefUnset
		hasPaths = hasPaths || !p.Prefs.IsZero()
	}
	if hasInput && !u.ContentSignal {
		out = append(out, "ai_input")
	}
	if hasPaths && !u.ContentUsage {
		out = append(out, "paths")
	}
	return out
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
