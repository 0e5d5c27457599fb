package robots

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// Some operators document how their crawlers read robots.txt beyond RFC
// 9309's group selection (its own group, else "*"):
//
//   - A fallback: a crawler whose token no group names obeys the group of
//     another of the operator's tokens before "*". Googlebot-Image with
//     only Googlebot and * groups obeys Googlebot's, where RFC 9309 sends
//     it to *.
//   - A control token: a token that never fetches a URL. Google-Extended
//     and Applebot-Extended only read their group to decide whether what
//     the operator's crawlers fetched may be used; its Allow and Disallow
//     say which use is allowed, not what may be fetched.
//
// The chains are data (fallbacks.json), each with the page that documents
// it, the day it was recorded and what text was read to record it.

//go:embed fallbacks.json
var fallbacksJSON []byte

// Fallback is what an operator documents for one of its tokens.
type Fallback struct {
	Token    string `json:"token"`
	Operator string `json:"operator"`
	// Crawler names the operator's crawler ("Google's crawler").
	Crawler string `json:"crawler,omitempty"`
	// Chain lists the tokens whose groups the crawler obeys, in order,
	// when no group names Token; "*" comes after them.
	Chain []string `json:"chain,omitempty"`
	// Control is set for a control token: it never fetches.
	Control  bool   `json:"control,omitempty"`
	Source   string `json:"source"`
	Recorded string `json:"recorded"`
	Seen     string `json:"seen"`
}

// Documented says where the fallback comes from: "as documented at URL,
// recorded DATE".
func (fb Fallback) Documented() string {
	return fmt.Sprintf("as documented at %s, recorded %s", fb.Source, fb.Recorded)
}

// fallbacks are read at first use, not when the package is initialised:
// every discgen command would pay for it.
var fallbacks = sync.OnceValue(func() []Fallback { return mustFallbacks(fallbacksJSON) })

func mustFallbacks(data []byte) []Fallback {
	var doc struct {
		Entries []Fallback `json:"entries"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		panic("robots: fallbacks.json: " + err.Error())
	}
	for _, fb := range doc.Entries {
		if !IsProductToken(fb.Token) || fb.Source == "" || fb.Recorded == "" || fb.Control == (len(fb.Chain) > 0) {
			panic(fmt.Sprintf("robots: fallbacks.json: bad entry %q", fb.Token))
		}
	}
	return doc.Entries
}

// Fallbacks returns every documented fallback and control token.
func Fallbacks() []Fallback { return append([]Fallback(nil), fallbacks()...) }

// FallbackFor returns what the operator documents for agent's product
// token (compared case-insensitively), if anything.
func FallbackFor(agent string) (Fallback, bool) {
	t := ProductToken(agent)
	for _, fb := range fallbacks() {
		if t != "" && strings.EqualFold(fb.Token, t) {
			return fb, true
		}
	}
	return Fallback{}, false
}

// OperatorReading is an agent's answer as its operator documents reading
// the file: the groups of the first token of [token, chain...] that a
// group names, else "*".
type OperatorReading struct {
	Fallback Fallback
	// Group is the token whose groups are read, as the fallback writes it
	// (the agent's own token, a chain token, "*"), or "" when no group
	// applies; RFCGroup is the same for RFC 9309's reading.
	Group, RFCGroup string
	Verdict         Verdict
	groups          []int
}

// Changed reports whether the fallback reads other groups than RFC 9309.
func (r OperatorReading) Changed() bool { return !strings.EqualFold(r.Group, r.RFCGroup) }

// Describe says which group the operator's crawler reads and why, to
// follow its name: "obeys the Googlebot group, as Googlebot-Image does
// where no group names it (Googlebot-Image, then Googlebot, then *)". For
// a control token it says what its group means. Fallback.Documented says
// where it comes from.
func (r OperatorReading) Describe() string {
	fb := r.Fallback
	if fb.Control {
		return "control token: never fetches; its group says what use is allowed"
	}
	group := "no group (all allowed)"
	switch r.Group {
	case "":
	case "*":
		group = "the * group"
	default:
		group = "the " + r.Group + " group"
	}
	chain := strings.Join(append(append([]string{fb.Token}, fb.Chain...), "*"), ", then ")
	return fmt.Sprintf("obeys %s, as %s does where no group names it (%s)", group, fb.Token, chain)
}

// MatchOperator answers for agent under its operator's documented reading,
// when there is one (ok is false otherwise): the groups are chosen along
// the fallback chain, then matched as Match does. For a control token the
// verdict says whether use is allowed, not whether it may fetch.
func (f *File) MatchOperator(agent, url string) (r OperatorReading, ok bool) {
	fb, ok := FallbackFor(agent)
	if !ok {
		return OperatorReading{}, false
	}
	r.Fallback = fb
	_, r.RFCGroup = f.groupsVia([]string{ProductToken(agent)})
	r.groups, r.Group = f.groupsVia(append([]string{ProductToken(agent)}, fb.Chain...))
	if r.Group != "" && r.Group != "*" && strings.EqualFold(r.Group, ProductToken(agent)) {
		r.Group, r.RFCGroup = fb.Token, fb.Token
	}
	path := PathOf(url)
	if isRobotsTxt(path) {
		r.Verdict = Verdict{Allowed: true}
	} else {
		r.Verdict = f.matchGroups(r.groups, path)
	}
	return r, true
}

// UsageOperator is Usage over the groups of an operator's reading.
func (f *File) UsageOperator(r OperatorReading, url string) UsageReading {
	return f.usageOver(r.groups, url)
}

// groupsVia returns the groups naming the first of tokens some group
// names, with that token; else the "*" groups and "*"; else nothing and "".
func (f *File) groupsVia(tokens []string) ([]int, string) {
	for _, t := range tokens {
		if t == "" {
			continue
		}
		var gs []int
		for i := range f.Groups {
			if names(&f.Groups[i], t) {
				gs = append(gs, i)
			}
		}
		if gs != nil {
			return gs, t
		}
	}
	if gs := f.groupsFor(""); gs != nil {
		return gs, "*"
	}
	return nil, ""
}

// MatchEffective answers as the crawler carrying agent's token reads the
// file: RFC 9309 (Match), or where its operator documents a reading that
// chooses other groups, that reading, returned too (nil otherwise). A
// control token's verdict says whether use is allowed.
func (f *File) MatchEffective(agent, url string) (Verdict, *OperatorReading) {
	if r, ok := f.MatchOperator(agent, url); ok && (r.Changed() || r.Fallback.Control) {
		return r.Verdict, &r
	}
	return f.Match(agent, url), nil
}
