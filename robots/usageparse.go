package robots

import (
	"slices"
	"strings"

	"github.com/discgen/discgen/aipref"
)

// UsageKind says which form a preference line is in.
type UsageKind int

const (
	UsageContentUsage  UsageKind = iota + 1 // draft-ietf-aipref-attach-05
	UsageContentSignal                      // contentsignals.org
)

func (k UsageKind) String() string {
	if k == UsageContentSignal {
		return "Content-Signal"
	}
	return "Content-Usage"
}

// UsageKindOf reports whether a robots.txt key names a preference line
// (case insensitively, as every robots.txt key) and which.
func UsageKindOf(key string) (UsageKind, bool) {
	switch {
	case strings.EqualFold(key, "content-usage"):
		return UsageContentUsage, true
	case strings.EqualFold(key, "content-signal"):
		return UsageContentSignal, true
	}
	return 0, false
}

// UsageLine is one preference line read from a file.
type UsageLine struct {
	Line
	Form UsageKind
	// Path is the Content-Usage rule's path, "" when absent (the rule
	// applies to every path).
	Path  string
	Prefs aipref.Prefs
	// Use is a Content-Signal's "use" value (aipref.ParseSignal).
	Use string
	// Problems are what a reader of the line would not understand as the
	// author meant: a value that is not a dictionary (every preference of
	// the line unknown), unknown categories, values other than y/n
	// (yes/no), keys given twice. Each is one sentence.
	Problems []string
}

// ParseUsageLine reads a preference line, or reports false when l is no
// preference line.
func ParseUsageLine(l Line) (UsageLine, bool) {
	form, ok := UsageKindOf(l.Key)
	if !ok {
		return UsageLine{}, false
	}
	u := UsageLine{Line: l, Form: form}
	if form == UsageContentUsage {
		u.Path, u.Prefs, u.Problems = ParseContentUsage(l.Value)
	} else {
		u.Prefs, u.Use, u.Problems = aipref.ParseSignal(l.Value)
	}
	return u, true
}

// ParseContentUsage reads the value of a Content-Usage rule as
// draft-ietf-aipref-attach-05 section 4.2 says: a value that starts with
// "/" has a path, up to the first space or tab; the rest is a statement of
// preference, read by aipref.ParseUsage.
func ParseContentUsage(value string) (path string, p aipref.Prefs, problems []string) {
	value = strings.Trim(value, " \t")
	if strings.HasPrefix(value, "/") {
		i := strings.IndexAny(value, " \t")
		if i < 0 {
			return value, aipref.Prefs{}, []string{"a path with no preference after it"}
		}
		path, value = value[:i], strings.TrimLeft(value[i:], " \t")
	}
	p, problems = aipref.ParseUsage(value)
	return path, p, problems
}

// GroupUsage is what one group's preference lines say.
type GroupUsage struct {
	Lines []UsageLine // in file order
}

// UsageOf returns the preference lines of a group.
func (g *Group) UsageOf() GroupUsage {
	var u GroupUsage
	for _, l := range g.Other {
		if ul, ok := ParseUsageLine(l); ok {
			u.Lines = append(u.Lines, ul)
		}
	}
	return u
}

// UsageReading is the preferences an agent reads for one URL, in each form,
// with the line each comes from (0: none).
type UsageReading struct {
	// ContentUsage is from the longest matching Content-Usage rule (a rule
	// without a path matches every path with length 0); Lines lists every
	// Content-Usage line of that length that matches, as the draft applies
	// them together (vocab-07 section 7.1: a "no" wins).
	ContentUsage      aipref.Prefs
	ContentUsageLines []int
	// ContentSignal is from the group's Content-Signal lines (the last
	// one stating each category), with their line numbers.
	ContentSignal      aipref.Prefs
	ContentSignalLines []int
	// Use is the "use" value of the last of those lines that gives one.
	Use string
	// Lines are the lines above, in file order.
	Lines []UsageLine
}

// Text returns the line as written: "Content-Usage: /blog/ train-ai=y".
func (u UsageLine) Text() string { return u.Key + ": " + u.Value }

// Combined returns the preferences both forms say together
// (aipref.Combine: each category's "no" wins over a "yes").
func (r UsageReading) Combined() aipref.Prefs { return aipref.Combine(r.ContentUsage, r.ContentSignal) }

// Usage returns the preferences an agent reads for a URL under RFC 9309:
// from the groups Match uses for it. It says nothing of whether the agent
// may fetch the URL (Match does); preferences apply only where it may.
func (f *File) Usage(agent, url string) UsageReading {
	return f.usageOver(f.groupsFor(ProductToken(agent)), url)
}

// usageOver is Usage over the given groups.
func (f *File) usageOver(groups []int, url string) UsageReading {
	path := PathOf(url)
	var r UsageReading
	var m matcher
	best := -1
	var lines []UsageLine
	for _, gi := range groups {
		lines = append(lines, f.Groups[gi].UsageOf().Lines...)
	}
	for _, l := range lines {
		if l.Form == UsageContentSignal {
			r.ContentSignal = l.Prefs.Over(r.ContentSignal)
			r.ContentSignalLines = append(r.ContentSignalLines, l.Num)
			if l.Use != "" {
				r.Use = l.Use
			}
			continue
		}
		pat := escapePattern(l.Path)
		if pat != "" && !m.match(path, pat) {
			continue
		}
		switch {
		case len(pat) > best:
			best = len(pat)
			r.ContentUsage = l.Prefs
			r.ContentUsageLines = []int{l.Num}
		case len(pat) == best:
			r.ContentUsage = aipref.Combine(r.ContentUsage, l.Prefs)
			r.ContentUsageLines = append(r.ContentUsageLines, l.Num)
		}
	}
	for _, l := range lines {
		if slices.Contains(r.ContentUsageLines, l.Num) || slices.Contains(r.ContentSignalLines, l.Num) {
			r.Lines = append(r.Lines, l)
		}
	}
	slices.SortFunc(r.Lines, func(a, b UsageLine) int { return a.Num - b.Num })
	return r
}
