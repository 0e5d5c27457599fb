package main

import (
	"fmt"
	"io"

	"github.com/discgen/discgen/robots"
)

// operatorJSON is an agent's answer under its operator's documented
// reading of robots.txt (robots.FallbackFor): a fallback chain, or a
// control token whose group says what use is allowed.
type operatorJSON struct {
	Crawler string `json:"crawler,omitempty"`
	Control bool   `json:"control_token"`
	// Group is the token whose groups the reading obeys ("*" for the star
	// group, "" for none); ChangesGroup is set where RFC 9309 reads
	// another.
	Group        string `json:"group"`
	ChangesGroup bool   `json:"changes_group"`
	// Verdict is whether it may fetch, or for a control token whether use
	// is allowed.
	Verdict  verdictJSON `json:"verdict"`
	Reading  string      `json:"reading"`
	Source   string      `json:"source"`
	Recorded string      `json:"recorded"`
	Usage    *usageJSON  `json:"usage,omitempty"`
}

// operatorAt returns agent's answer for url under its operator's
// documented reading, or nil where none is documented.
func operatorAt(f *robots.File, agent, url string) *operatorJSON {
	r, ok := f.MatchOperator(agent, url)
	if !ok {
		return nil
	}
	o := &operatorJSON{Crawler: r.Fallback.Crawler, Control: r.Fallback.Control, Group: r.Group, ChangesGroup: r.Changed(),
		Verdict: verdictJSON{r.Verdict.Allowed, r.Verdict.Rule, r.Verdict.Line},
		Reading: r.Describe(), Source: r.Fallback.Source, Recorded: r.Fallback.Recorded}
	if r.Verdict.Allowed && o.ChangesGroup && !o.Control {
		o.Usage = usageOf(f.UsageOperator(r, url))
	}
	return o
}

// printVerdict writes one check line and the lines under it: a control
// token's use, or an ordinary verdict with, where a documented fallback
// changes the group, the verdict the operator's crawler applies.
func printVerdict(w io.Writer, l verdictLine) {
	o := l.Operator
	if o != nil && o.Control {
		fmt.Fprintf(w, "CONTROL %s %s: %s: %s %s", l.Agent, l.URL, o.Reading, useWord(l.RFC9309.Allowed), ruleText(l.RFC9309))
		if l.Differs {
			fmt.Fprintf(w, "; the 1996 draft reads %s %s", useWord(l.Draft.Allowed), ruleText(l.Draft))
		}
		fmt.Fprintf(w, " (as documented at %s, recorded %s)\n", o.Source, o.Recorded)
		if l.Usage != nil {
			fmt.Fprintf(w, "  usage %s (%s)\n", l.Usage.Prefs, l.Usage.linesText())
		}
		return
	}
	fmt.Fprintf(w, "%s %s %s %s", l.Verdict, l.Agent, l.URL, ruleText(l.RFC9309))
	if l.Differs {
		fmt.Fprintf(w, "; the 1996 draft reads %s %s", verdictWord(l.Draft.Allowed), ruleText(l.Draft))
	}
	fmt.Fprintln(w)
	if l.Usage != nil {
		fmt.Fprintf(w, "  usage %s (%s)\n", l.Usage.Prefs, l.Usage.linesText())
	}
	if o == nil || !o.ChangesGroup {
		return
	}
	fmt.Fprintf(w, "  %s: %s %s; it %s (as documented at %s, recorded %s); the verdict above is RFC 9309's, for the token as written\n",
		o.Crawler, verdictWord(o.Verdict.Allowed), ruleText(o.Verdict), o.Reading, o.Source, o.Recorded)
	if o.Usage != nil {
		fmt.Fprintf(w, "  usage (%s) %s (%s)\n", o.Crawler, o.Usage.Prefs, o.Usage.linesText())
	}
}

func useWord(allowed bool) string {
	if allowed {
		return "use allowed"
	}
	return "use not allowed"
}
