package robots

import (
	"fmt"
	"sort"
	"strings"

	"github.com/discgen/discgen/aipref"
)

// Finding codes for usage preference lines (usage.go).
const (
	CodeUsageOutside  = "R032" // preference line before any User-agent line
	CodeUsageHidden   = "R033" // "*" preference a named group does not carry
	CodeUsageValue    = "R034" // unknown category, bad value, not a dictionary
	CodeUsageRepeated = "R035" // a key or path stated twice in one group
)

// lintUsage checks the Content-Usage and Content-Signal lines of a file:
//
//	R032 a preference line before any User-agent line: it belongs to no
//	     group, and every reader ignores it (an error)
//	R033 a named group that does not state a category the "*" group states:
//	     its agents read only their own group (RFC 9309), so the "*"
//	     preference is hidden from them; reported on the group's first
//	     User-agent line
//	R034 a value a reader would not read as meant: not a structured-field
//	     dictionary, an unknown category, a value other than y/n (yes/no)
//	R035 a key given twice in one line or on two lines of one form in one
//	     group (Content-Signal), or two Content-Usage lines for one path
func lintUsage(f *File, x *lintIndex, add func(string, int, string, ...any)) {
	for _, l := range f.Orphans {
		if form, ok := UsageKindOf(l.Key); ok {
			add(CodeUsageOutside, l.Num, "%s before any User-agent line belongs to no group, and crawlers ignore it; put it in each group (after the group's rules)", form)
		}
	}
	stated := make([]map[string]bool, len(f.Groups)) // categories each group states
	for gi := range f.Groups {
		stated[gi] = map[string]bool{}
		signalKeys := map[string]int{}
		usagePaths := map[string]int{}
		for _, ul := range f.Groups[gi].UsageOf().Lines {
			for _, p := range ul.Problems {
				code := CodeUsageValue
				if strings.HasSuffix(p, aipref.Repeated) {
					code = CodeUsageRepeated
				}
				add(code, ul.Num, "%s: %s", ul.Form, p)
			}
			for _, c := range aipref.Categories {
				if c.Get(ul.Prefs) != aipref.PrefUnset {
					stated[gi][c.Manifest] = true
				}
			}
			if ul.Form == UsageContentUsage {
				if first, ok := usagePaths[ul.Path]; ok {
					add(CodeUsageRepeated, ul.Num, "Content-Usage for %s repeats line %d: readers apply both, and a \"n\" in either wins", pathOrAll(ul.Path), first)
				} else {
					usagePaths[ul.Path] = ul.Num
				}
				continue
			}
			for _, c := range aipref.Categories {
				if c.Get(ul.Prefs) == aipref.PrefUnset {
					continue
				}
				if first, ok := signalKeys[c.ContentSignal]; ok {
					add(CodeUsageRepeated, ul.Num, "Content-Signal states %s again (line %d): readers may keep either", c.ContentSignal, first)
				} else {
					signalKeys[c.ContentSignal] = ul.Num
				}
			}
		}
	}
	if len(x.global) == 0 {
		return
	}
	global := map[string]bool{}
	for _, gi := range x.global {
		for k := range stated[gi] {
			global[k] = true
		}
	}
	if len(global) == 0 {
		return
	}
	done := map[string]bool{}
	for gi, g := range f.Groups {
		token := g.firstToken()
		k := strings.ToLower(token)
		if token == "" || done[k] {
			continue
		}
		done[k] = true
		if disallowedEverywhere(f, x.byToken[k]) {
			continue // preferences apply only where a crawler may fetch
		}
		have := map[string]bool{}
		for _, gj := range x.byToken[k] {
			for c := range stated[gj] {
				have[c] = true
			}
		}
		var missing []string
		for c := range global {
			if !have[c] {
				missing = append(missing, c)
			}
		}
		if len(missing) == 0 {
			continue
		}
		sort.Strings(missing)
		add(CodeUsageHidden, f.Groups[gi].Agents[0].Num, "%s has a group of its own, so it does not read the \"*\" group's preferences for %s: state them in its group too",
			token, strings.Join(missing, ", "))
	}
}

func pathOrAll(p string) string {
	if p == "" {
		return "every path"
	}
	return fmt.Sprintf("%q", p)
}

// disallowedEverywhere reports whether groups disallow "/" and allow
// nothing: their agents may fetch no URL, so no preference applies to them.
func disallowedEverywhere(f *File, groups []int) bool {
	for _, gi := range groups {
		for _, r := range f.Groups[gi].Rules {
			if r.Allow && r.Pattern != "" {
				return false
			}
		}
	}
	return !f.matchGroups(groups, "/").Allowed
}
