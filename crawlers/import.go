package crawlers

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/discgen/discgen/robots"
)

// ListKey is the key of the ai.robots.txt list in Catalogue.Sources.
const ListKey = "ai.robots.txt"

// MaxListSize bounds the robots.json Import reads (the list of 2026 is
// about 90 KB).
const MaxListSize = 8 << 20

// ListEntry is one crawler of ai.robots.txt's robots.json.
type ListEntry struct {
	Operator    string `json:"operator"`
	Respect     string `json:"respect"`
	Function    string `json:"function"`
	Frequency   string `json:"frequency"`
	Description string `json:"description"`
}

// ParseList reads an ai.robots.txt robots.json: an object of crawler
// names to entries.
func ParseList(data []byte) (map[string]ListEntry, error) {
	if len(data) > MaxListSize {
		return nil, fmt.Errorf("%d bytes, more than the %d a crawler list may hold", len(data), MaxListSize)
	}
	var list map[string]ListEntry
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("no crawlers: not an ai.robots.txt robots.json")
	}
	return list, nil
}

// Added is an agent an import adds, with the list's function text its
// purpose was read from (to review).
type Added struct {
	Agent
	Function string
}

// Change is a field of an agent an import changes.
type Change struct {
	Name, Field, Old, New string
}

// Diff is what an import changes in a catalogue.
type Diff struct {
	From, To Source // the list before and after
	Added    []Added
	Removed  []Agent
	Changed  []Change
	// NotTokens are names of the list that are no product tokens, and
	// have none before a "/" either; Kept are names of the catalogue's
	// left_out.
	NotTokens, Kept []string
}

// Import refreshes c from a newer ai.robots.txt list, whose commit and
// date src gives, and returns the new catalogue and what changed. Agents
// sourced from the list follow it: added (with a purpose read from the
// list's function text, and the operator its operator field names, or
// unknown), removed when the list no longer holds them, their operator
// changed when the list names another. Agents sourced from their
// operator's documentation stay as they are, as do the names the
// catalogue leaves out. A name with a version ("MistralAI-User/1.0") is
// read without it; where the list holds a token twice, with and without a
// version, the entry naming an operator is read. c is not changed.
func Import(c *Catalogue, list map[string]ListEntry, src Source) (*Catalogue, *Diff, error) {
	if _, err := time.Parse(time.DateOnly, src.Date); err != nil {
		return nil, nil, fmt.Errorf("date %q: %v", src.Date, err)
	}
	old, ok := c.Sources[ListKey]
	if !ok {
		return nil, nil, fmt.Errorf("the catalogue lists no source %s", ListKey)
	}
	next := old
	next.Commit, next.Date = src.Commit, src.Date
	d := &Diff{From: old, To: next}
	n := &Catalogue{Date: max(c.Date, src.Date), Sources: maps.Clone(c.Sources), Purposes: c.Purposes, LeftOut: c.LeftOut}
	n.Sources[ListKey] = next

	leftOut := map[string]bool{}
	for name := range c.LeftOut {
		leftOut[strings.ToLower(name)] = true
	}
	inList := map[string]string{} // lower-cased token -> name in the list
	for _, name := range slices.SortedFunc(maps.Keys(list), byName) {
		tok := name
		if !robots.IsAgentName(tok) {
			before, _, _ := strings.Cut(tok, "/")
			if !robots.IsAgentName(before) {
				d.NotTokens = append(d.NotTokens, name)
				continue
			}
			tok = before
		}
		k := strings.ToLower(tok)
		switch prev, dup := inList[k]; {
		case leftOut[k]:
			d.Kept = append(d.Kept, name)
		case !dup:
			inList[k] = name
		case listOperator(list[prev].Operator) == "" && listOperator(list[name].Operator) != "":
			// One token listed twice ("iaskspider", "iaskspider/2.0"):
			// the entry that names an operator speaks for both.
			inList[k] = name
		}
	}

	have := map[string]bool{}
	for _, a := range c.Agents {
		k := strings.ToLower(a.Name)
		have[k] = true
		if a.Source != ListKey {
			n.Agents = append(n.Agents, a)
			continue
		}
		name, ok := inList[k]
		if !ok {
			d.Removed = append(d.Removed, a)
			continue
		}
		a.Checked = next.Date
		if op := listOperator(list[name].Operator); op != "" && operatorDiffers(a.Operator, op) {
			d.Changed = append(d.Changed, Change{a.Name, "operator", a.Operator, op})
			a.Operator = op
		}
		n.Agents = append(n.Agents, a)
	}
	for _, k := range slices.Sorted(maps.Keys(inList)) {
		if have[k] {
			continue
		}
		name := inList[k]
		e := list[name]
		tok := name
		if !robots.IsAgentName(tok) {
			tok, _, _ = strings.Cut(tok, "/")
		}
		op := listOperator(e.Operator)
		if op == "" {
			op = "unknown"
		}
		a := Agent{Name: tok, Operator: op, Purpose: purposeOf(e.Function), Source: ListKey, Checked: next.Date}
		d.Added = append(d.Added, Added{a, e.Function})
		n.Agents = append(n.Agents, a)
	}
	slices.SortFunc(d.Added, func(x, y Added) int { return byName(x.Name, y.Name) })
	slices.SortFunc(n.Agents, func(x, y Agent) int { return byName(x.Name, y.Name) })
	// The result must read back as the catalogue it is.
	if _, err := Parse(Format(n)); err != nil {
		return nil, nil, fmt.Errorf("the refreshed catalogue is invalid: %v", err)
	}
	return n, d, nil
}

// listOperator reads the list's operator field: the text of a Markdown
// link, or a bare URL's host; "" where the list says it does not know.
func listOperator(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "]("); strings.HasPrefix(s, "[") && i > 0 {
		s = s[1:i]
	} else if u, err := url.Parse(s); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
		s = strings.TrimPrefix(u.Host, "www.")
	}
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	l := strings.ToLower(s)
	for _, none := range []string{"unclear", "unknown", "no information", "n/a", "not "} {
		if strings.HasPrefix(l, none) {
			return ""
		}
	}
	if len(s) > 80 || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return ""
	}
	return s
}

// operatorDiffers reports whether the list's operator names another one
// than the catalogue's: neither holds the other ("Ai2" and "Ai2, a
// non-profit AI research institute" are one).
func operatorDiffers(have, list string) bool {
	h, l := strings.ToLower(have), strings.ToLower(list)
	return h == "unknown" || !strings.Contains(h, l) && !strings.Contains(l, h)
}

// purposeOf reads a purpose from the list's free-text function: training,
// then search, then a person's assistant or agent, else scrapers. A
// maintainer reviews it (the import shows the text).
func purposeOf(function string) string {
	f := strings.ToLower(function)
	switch {
	case strings.Contains(f, "train"):
		return "ai-training"
	case strings.Contains(f, "search"):
		return "ai-search"
	case strings.Contains(f, "assistant"), strings.Contains(f, "agent"), strings.Contains(f, "user"):
		return "ai-user"
	}
	return "scrapers"
}

// Write prints the differences for people: the list's commit and date
// before and after, then the agents added, removed and changed, then the
// names left out.
func (d *Diff) Write(w io.Writer) error {
	short := func(c string) string { return c[:min(len(c), 12)] }
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: commit %s of %s -> commit %s of %s\n", ListKey, d.To.File, short(d.From.Commit), d.From.Date, short(d.To.Commit), d.To.Date)
	fmt.Fprintf(&b, "added %d:\n", len(d.Added))
	for _, a := range d.Added {
		fmt.Fprintf(&b, "  + %s: %s, operator %s (function %q)\n", a.Name, a.Purpose, a.Operator, a.Function)
	}
	fmt.Fprintf(&b, "removed %d:\n", len(d.Removed))
	for _, a := range d.Removed {
		fmt.Fprintf(&b, "  - %s: %s, operator %s\n", a.Name, a.Purpose, a.Operator)
	}
	fmt.Fprintf(&b, "changed %d:\n", len(d.Changed))
	for _, c := range d.Changed {
		fmt.Fprintf(&b, "  ~ %s: %s %q -> %q\n", c.Name, c.Field, c.Old, c.New)
	}
	if len(d.Kept) > 0 {
		fmt.Fprintf(&b, "left out as before: %s\n", strings.Join(d.Kept, ", "))
	}
	if len(d.NotTokens) > 0 {
		quoted := make([]string, len(d.NotTokens))
		for i, n := range d.NotTokens {
			quoted[i] = strconv.Quote(n)
		}
		fmt.Fprintf(&b, "left out, no product token: %s\n", strings.Join(quoted, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
