package main

import (
	"fmt"
	"github.com/discgen/discgen/aipref"
	"strings"

	"github.com/discgen/discgen/robots"
)

// usageJSON is what an agent reads from preference lines at one URL: both
// forms together (a "no" in either wins), each category in the manifest's
// words, and the lines it comes from.
type usageJSON struct {
	Prefs string `json:"preferences"` // "train_ai=no, search=yes"
	// ContentUsage and ContentSignal are what each form says alone.
	ContentUsage  string         `json:"content_usage"`
	ContentSignal string         `json:"content_signal"`
	Lines         []usageLineRef `json:"lines"`
	// Disagree is set where the forms state a category differently.
	Disagree bool `json:"forms_disagree"`
}

type usageLineRef struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// usageAt returns the preferences agent reads for url in f, or nil where
// it may not fetch url (preferences apply only where it may) or no
// preference line applies.
func usageAt(f *robots.File, agent, url string, allowed bool) *usageJSON {
	if !allowed {
		return nil
	}
	return usageOf(f.Usage(agent, url))
}

// usageOf returns a reading's preferences, or nil where no preference
// line applies.
func usageOf(r robots.UsageReading) *usageJSON {
	if len(r.Lines) == 0 {
		return nil
	}
	u := &usageJSON{Prefs: r.Combined().String(), ContentUsage: r.ContentUsage.String(), ContentSignal: r.ContentSignal.String()}
	for _, c := range aipref.Categories {
		a, b := c.Get(r.ContentUsage), c.Get(r.ContentSignal)
		u.Disagree = u.Disagree || a != aipref.PrefUnset && b != aipref.PrefUnset && a != b
	}
	for _, l := range r.Lines {
		u.Lines = append(u.Lines, usageLineRef{l.Num, l.Text()})
	}
	return u
}

func (u *usageJSON) linesText() string {
	parts := make([]string, len(u.Lines))
	for i, l := range u.Lines {
		parts[i] = fmt.Sprintf("line %d: %s", l.Line, l.Text)
	}
	s := strings.Join(parts, "; ")
	if u.Disagree {
		s += fmt.Sprintf("; the forms disagree: Content-Usage says %s, Content-Signal %s, and a no wins", u.ContentUsage, u.ContentSignal)
	}
	return s
}
