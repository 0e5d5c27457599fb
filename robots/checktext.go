package robots

import (
	"fmt"
	"io"
)

// WriteText writes the line as discgen check prints it, and the lines
// under it: a control token's use, or an ordinary verdict with, where a
// documented fallback changes the group, the verdict the operator's
// crawler applies.
func (l CheckLine) WriteText(w io.Writer) {
	o := l.Operator
	if o != nil && o.Control {
		fmt.Fprintf(w, "CONTROL %s %s: %s: %s %s", l.Agent, l.URL, o.Reading, useWord(l.RFC9309.Allowed), ruleText(l.RFC9309))
		if l.Differs {
			fmt.Fprintf(w, "; the 1996 draft reads %s %s", useWord(l.Draft.Allowed), ruleText(l.Draft))
		}
		fmt.Fprintf(w, " (as documented at %s, recorded %s)\n", o.Source, o.Recorded)
		if l.Usage != nil {
			fmt.Fprintf(w, "  usage %s (%s)\n", l.Usage.Prefs, l.Usage.LinesText())
		}
		return
	}
	fmt.Fprintf(w, "%s %s %s %s", l.Verdict, l.Agent, l.URL, ruleText(l.RFC9309))
	if l.Differs {
		fmt.Fprintf(w, "; the 1996 draft reads %s %s", VerdictWord(l.Draft.Allowed), ruleText(l.Draft))
	}
	fmt.Fprintln(w)
	if l.Usage != nil {
		fmt.Fprintf(w, "  usage %s (%s)\n", l.Usage.Prefs, l.Usage.LinesText())
	}
	if o == nil || !o.ChangesGroup {
		return
	}
	fmt.Fprintf(w, "  %s: %s %s; it %s (as documented at %s, recorded %s); the verdict above is RFC 9309's, for the token as written\n",
		o.Crawler, VerdictWord(o.Verdict.Allowed), ruleText(o.Verdict), o.Reading, o.Source, o.Recorded)
	if o.Usage != nil {
		fmt.Fprintf(w, "  usage (%s) %s (%s)\n", o.Crawler, o.Usage.Prefs, o.Usage.LinesText())
	}
}

func useWord(allowed bool) string {
	if allowed {
		return "use allowed"
	}
	return "use not allowed"
}

// ruleText is the deciding rule of v and its line.
func ruleText(v Verdict) string {
	if v.Rule == "" {
		return "(no rule matches)"
	}
	return fmt.Sprintf("(line %d: %s)", v.Line, v.Rule)
}
