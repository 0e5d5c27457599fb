package robots

import (
	"fmt"
	"strings"

	"github.com/discgen/discgen/aipref"
)

// CheckLine is one agent and URL's answer under both readings, as
// discgen check prints it (and writes it with --format json).
type CheckLine struct {
	// Verdict is ALLOWED or DISALLOWED under RFC 9309, or CONTROL for a
	// control token (Operator then says whether use is allowed).
	Verdict string `json:"verdict"`
	Agent   string `json:"agent"`
	// Token and Name are what the RFC 9309 and the 1996 readings match:
	// the leading [A-Za-z_-] run, and the name without version.
	Token   string  `json:"rfc9309_token"`
	Name    string  `json:"draft1996_name"`
	URL     string  `json:"url"`
	RFC9309 Verdict `json:"rfc9309"`
	Draft   Verdict `json:"draft1996"`
	Differs bool    `json:"readings_differ"`
	// Usage is what the agent reads there from preference lines; absent
	// where it may not fetch the URL or no preference line applies.
	Usage *UsageJSON `json:"usage,omitempty"`
	// Operator is the answer under the reading the agent's operator
	// documents, where it documents one: a fallback to another token's
	// group, or a control token.
	Operator *OperatorJSON `json:"operator_reading,omitempty"`
}

// CheckLine answers for agent and url under both readings, with the
// preferences it reads there and its operator's documented reading.
func (f *File) CheckLine(agent, url string) CheckLine {
	r, d := f.Match(agent, url), f.Match1996(agent, url)
	l := CheckLine{
		Verdict: VerdictWord(r.Allowed), Agent: agent, URL: url,
		Token: ProductToken(agent), Name: AgentName(agent),
		RFC9309: r, Draft: d, Differs: r.Allowed != d.Allowed,
		Operator: f.operatorJSON(agent, url),
	}
	if r.Allowed {
		l.Usage = f.Usage(agent, url).JSON()
	}
	if l.Operator != nil && l.Operator.Control {
		l.Verdict = "CONTROL"
	}
	return l
}

// VerdictWord is ALLOWED or DISALLOWED.
func VerdictWord(allowed bool) string {
	if allowed {
		return "ALLOWED"
	}
	return "DISALLOWED"
}

// UsageJSON is what an agent reads from preference lines at one URL: both
// forms together (a "no" in either wins), each category in the manifest's
// words, and the lines it comes from.
type UsageJSON struct {
	Prefs string `json:"preferences"` // "train_ai=no, search=yes"
	// ContentUsage and ContentSignal are what each form says alone.
	ContentUsage  string         `json:"content_usage"`
	ContentSignal string         `json:"content_signal"`
	Lines         []UsageLineRef `json:"lines"`
	// Disagree is set where the forms state a category differently.
	Disagree bool `json:"forms_disagree"`
}

// UsageLineRef is a preference line read, by number.
type UsageLineRef struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// JSON is the reading's JSON form, nil where no preference line applies.
func (r UsageReading) JSON() *UsageJSON {
	if len(r.Lines) == 0 {
		return nil
	}
	u := &UsageJSON{Prefs: r.Combined().String(), ContentUsage: r.ContentUsage.String(), ContentSignal: r.ContentSignal.String()}
	for _, c := range aipref.Categories {
		a, b := c.Get(r.ContentUsage), c.Get(r.ContentSignal)
		u.Disagree = u.Disagree || a != aipref.PrefUnset && b != aipref.PrefUnset && a != b
	}
	for _, l := range r.Lines {
		u.Lines = append(u.Lines, UsageLineRef{l.Num, l.Text()})
	}
	return u
}

// LinesText names the lines read, and the forms' disagreement if any, as
// check's text output shows them.
func (u *UsageJSON) LinesText() string {
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

// OperatorJSON is an agent's answer under its operator's documented
// reading of robots.txt (FallbackFor): a fallback chain, or a control
// token whose group says what use is allowed.
type OperatorJSON struct {
	Crawler string `json:"crawler,omitempty"`
	Control bool   `json:"control_token"`
	// Group is the token whose groups the reading obeys ("*" for the star
	// group, "" for none); ChangesGroup is set where RFC 9309 reads
	// another.
	Group        string `json:"group"`
	ChangesGroup bool   `json:"changes_group"`
	// Verdict is whether it may fetch, or for a control token whether use
	// is allowed.
	Verdict  Verdict    `json:"verdict"`
	Reading  string     `json:"reading"`
	Source   string     `json:"source"`
	Recorded string     `json:"recorded"`
	Usage    *UsageJSON `json:"usage,omitempty"`
}

// operatorJSON is agent's answer for url under its operator's documented
// reading, or nil where none is documented.
func (f *File) operatorJSON(agent, url string) *OperatorJSON {
	r, ok := f.MatchOperator(agent, url)
	if !ok {
		return nil
	}
	o := &OperatorJSON{Crawler: r.Fallback.Crawler, Control: r.Fallback.Control, Group: r.Group, ChangesGroup: r.Changed(),
		Verdict: r.Verdict, Reading: r.Describe(), Source: r.Fallback.Source, Recorded: r.Fallback.Recorded}
	if r.Verdict.Allowed && o.ChangesGroup && !o.Control {
		o.Usage = f.UsageOperator(r, url).JSON()
	}
	return o
}
