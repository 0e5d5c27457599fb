package aipref

import "strings"

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
	for _, c := range categories {
		if c.Get(p) == PrefUnset {
			c.Set(&p, c.Get(base))
		}
	}
	return p
}

// String gives the stated preferences in the manifest's words, such as
// "train_ai=no, search=yes", or "none".
func (p Prefs) String() string {
	var parts []string
	for _, c := range categories {
		if v := c.Get(p); v != PrefUnset {
			parts = append(parts, c.Manifest+"="+v.String())
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// Combine returns what a and b say together: each category's "no" wins
// over a "yes", as draft-ietf-aipref-vocab-07 section 7.1 combines
// preferences.
func Combine(a, b Prefs) Prefs {
	var out Prefs
	for _, c := range categories {
		x, y := c.Get(a), c.Get(b)
		switch {
		case x == PrefNo || y == PrefNo:
			c.Set(&out, PrefNo)
		case x == PrefYes || y == PrefYes:
			c.Set(&out, PrefYes)
		}
	}
	return out
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

// Set sets p's preference for the category.
func (c Category) Set(p *Prefs, v Pref) { c.set(p, v) }

// Categories yields the categories discgen writes, each with its index,
// in the order Content-Usage values list them (the vocabulary's table
// order); Content-Signal values use signalOrder. It is ranged over as a
// list was: for _, c := range aipref.Categories. The table itself is not
// exported, so no caller can change it for the others.
func Categories(yield func(int, Category) bool) {
	for i, c := range categories {
		if !yield(i, c) {
			return
		}
	}
}

var categories = [...]Category{
	{"train_ai", "train-ai", "ai-train", func(p Prefs) Pref { return p.TrainAI }, func(p *Prefs, v Pref) { p.TrainAI = v }},
	{"search", "search", "search", func(p Prefs) Pref { return p.Search }, func(p *Prefs, v Pref) { p.Search = v }},
	{"ai_input", "", "ai-input", func(p Prefs) Pref { return p.AIInput }, func(p *Prefs, v Pref) { p.AIInput = v }},
}

// signalOrder is the order of contentsignals.org's example policy:
// search, ai-input, ai-train.
var signalOrder = []int{1, 2, 0}

// UsageValue returns the Content-Usage dictionary for p
// ("train-ai=n, search=y"), or "" when p states nothing aipref can say.
func UsageValue(p Prefs) string {
	var parts []string
	for _, c := range categories {
		if v := c.Get(p); v != PrefUnset && c.ContentUsage != "" {
			parts = append(parts, c.ContentUsage+"="+map[Pref]string{PrefYes: "y", PrefNo: "n"}[v])
		}
	}
	return strings.Join(parts, ", ")
}

// SignalValue returns the Content-Signal value for p
// ("search=yes, ai-train=no"), or "" when p states nothing.
func SignalValue(p Prefs) string {
	var parts []string
	for _, i := range signalOrder {
		c := categories[i]
		if v := c.Get(p); v != PrefUnset {
			parts = append(parts, c.ContentSignal+"="+v.String())
		}
	}
	return strings.Join(parts, ", ")
}
