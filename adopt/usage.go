package adopt

import (
	"fmt"
	"strings"

	"github.com/discgen/discgen/aipref"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
)

// usageImport collects one group's preference lines (Content-Usage,
// Content-Signal) as the manifest's usage: the group's preferences, its
// path-scoped ones, and the forms it used.
type usageImport struct {
	u          manifest.Usage
	cu, cs     bool
	paths      map[string]int // path -> index in u.Paths
	prefs      aipref.Prefs   // what the lines without a path say, both forms
	fromSignal aipref.Prefs   // what Content-Signal said, to tell a conflict
	fromUsage  aipref.Prefs
}

// add reads one preference line. It reports false, with why, for a line
// the manifest cannot hold at all (a value that is no dictionary, no
// preference read from it, a path that is no path), which the caller keeps
// as a comment. A line whose known preferences the manifest holds but
// which says more (members the vocabulary cannot use, a key given twice)
// is carried over with those preferences and Content-Signal's use, and
// partly says what is left out, one sentence each, for a warning at the
// line and the line kept as a comment.
func (ui *usageImport) add(ul robots.UsageLine) (ok bool, why string, partly []string) {
	for _, p := range ul.Problems {
		if strings.HasPrefix(p, aipref.NotADictionary) || ul.Prefs.IsZero() {
			return false, p, nil
		}
	}
	partly = ul.Problems
	if ul.Use != "" {
		ui.u.Use = ul.Use // the last line's, as a reader keeps it
		ui.cs = true
		if ul.Prefs.IsZero() {
			return true, "", partly
		}
	}
	ok, why = ui.addPrefs(ul)
	return ok, why, partly
}

func (ui *usageImport) addPrefs(ul robots.UsageLine) (ok bool, why string) {
	if ul.Form == robots.UsageContentSignal {
		if ul.Prefs.IsZero() {
			return false, "it states no search, ai-input or ai-train preference"
		}
		ui.cs = true
		ui.fromSignal = ul.Prefs.Over(ui.fromSignal)
		ui.prefs = merge(ui.prefs, ul.Prefs)
		return true, ""
	}
	if ul.Path != "" {
		if neverMatches(ul.Path) != "" || !plain(ul.Path) {
			return false, "its path cannot be written in a manifest"
		}
		ui.cu = true
		if ui.paths == nil {
			ui.paths = map[string]int{}
		}
		i, seen := ui.paths[ul.Path]
		if !seen {
			i = len(ui.u.Paths)
			ui.paths[ul.Path] = i
			ui.u.Paths = append(ui.u.Paths, manifest.UsagePath{Path: ul.Path})
		}
		p := &ui.u.Paths[i]
		old := aipref.PrefsOf(p.TrainAI, p.Search, p.AIInput)
		p.TrainAI, p.Search, p.AIInput = words(merge(old, ul.Prefs))
		return true, ""
	}
	ui.cu = true
	ui.fromUsage = ul.Prefs.Over(ui.fromUsage)
	ui.prefs = merge(ui.prefs, ul.Prefs)
	return true, ""
}

// conflict names the categories where the group's Content-Usage and
// Content-Signal lines disagree; the manifest keeps "no", as a reader that
// reads both would.
func (ui *usageImport) conflict() []string {
	var out []string
	for _, c := range aipref.Categories {
		a, b := c.Get(ui.fromUsage), c.Get(ui.fromSignal)
		if a != aipref.PrefUnset && b != aipref.PrefUnset && a != b {
			out = append(out, c.Manifest)
		}
	}
	return out
}

// usage returns the manifest's usage for the group, nil when it has no
// preference line.
func (ui *usageImport) usage() *manifest.Usage {
	if !ui.cu && !ui.cs {
		return nil
	}
	u := ui.u
	u.TrainAI, u.Search, u.AIInput = words(ui.prefs)
	switch {
	case ui.cu && !ui.cs:
		u.Formats = []string{"content-usage"}
	case ui.cs && !ui.cu:
		u.Formats = []string{"content-signal"}
	}
	return &u
}

// merge returns a's preferences with b's added, a "no" winning a conflict
// (draft-ietf-aipref-vocab-07 section 7.1).
func merge(a, b aipref.Prefs) aipref.Prefs {
	return aipref.Combine(a, b)
}

func words(p aipref.Prefs) (train, search, input string) {
	w := func(v aipref.Pref) string {
		if v == aipref.PrefUnset {
			return ""
		}
		return v.String()
	}
	return w(p.TrainAI), w(p.Search), w(p.AIInput)
}

// mergeUsage merges the usage of a later group naming the same agent into
// an earlier one's, the earlier winning where both state a preference (as
// emission merges them).
func mergeUsage(have, add *manifest.Usage) *manifest.Usage {
	switch {
	case add == nil:
		return have
	case have == nil:
		c := *add
		return &c
	}
	out := *have
	hp := aipref.PrefsOf(have.TrainAI, have.Search, have.AIInput)
	out.TrainAI, out.Search, out.AIInput = words(hp.Over(aipref.PrefsOf(add.TrainAI, add.Search, add.AIInput)))
	if out.Use == "" {
		out.Use = add.Use
	}
	out.Paths = append(append([]manifest.UsagePath(nil), add.Paths...), have.Paths...)
	if len(have.Formats) == 0 || len(add.Formats) == 0 || have.Formats[0] != add.Formats[0] {
		out.Formats = nil
	}
	return &out
}

func usageSignature(u *manifest.Usage) string {
	if u == nil {
		return ""
	}
	return fmt.Sprintf("%q %q %q %q %q %q", u.TrainAI, u.Search, u.AIInput, u.Use, u.Paths, u.Formats)
}

// hoistUsage writes a usage every group of site carries alike, as discgen
// writes the site's usage into each group, back as the site's usage: the
// groups are then left without one. A file with preference lines outside
// every group, a group without one, or groups that differ keep theirs.
func hoistUsage(site *manifest.Site) {
	if site.Usage != nil || len(site.Agents) == 0 {
		return
	}
	first := site.Agents[0].Usage
	if first == nil {
		return
	}
	sig := usageSignature(first)
	for _, g := range site.Agents[1:] {
		if g.Usage == nil || usageSignature(g.Usage) != sig {
			return
		}
	}
	site.Usage = first
	for i := range site.Agents {
		site.Agents[i].Usage = nil
	}
}
