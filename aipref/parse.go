package aipref

import (
	"fmt"
	"strings"
	"time"

	"github.com/dunglas/httpsfv"
)

// ParseUsage reads a Content-Usage value (a robots.txt rule's statement of
// preference, or the HTTP header) as draft-ietf-aipref-vocab-07 section
// 6.5 reads it: an RFC 9651 dictionary whose train-ai and search members
// are the Tokens y or n; any other member, or another value, leaves its
// category unknown and is named in problems. Each problem is one sentence.
func ParseUsage(value string) (Prefs, []string) {
	p, _, problems := readDict(value, func(label string) (Category, bool) {
		for _, c := range categories {
			if c.ContentUsage != "" && c.ContentUsage == label {
				return c, true
			}
		}
		return Category{}, false
	}, "y", "n", "train-ai, search")
	return p, problems
}

// ParseSignal reads a Content-Signal value (contentsignals.org,
// draft-romm-aipref-contentsignals-00): search, ai-input and ai-train,
// values yes and no, as a dictionary; use is the Token of its "use" member
// (immediate, reference or full, which Cloudflare's managed robots.txt
// writes: how content may be used where a use is allowed), "" when absent.
func ParseSignal(value string) (p Prefs, use string, problems []string) {
	return readDict(value, func(label string) (Category, bool) {
		for _, c := range categories {
			if c.ContentSignal == label {
				return c, true
			}
		}
		return Category{}, false
	}, "yes", "no", "search, ai-input, ai-train, use")
}

// signalUse holds the values of Content-Signal's "use" key.
var signalUse = map[string]bool{"immediate": true, "reference": true, "full": true}

// NotADictionary starts the problem of a value that is no dictionary.
const NotADictionary = "not a structured-field dictionary"

// Repeated ends the problem of a key given twice.
const Repeated = "is given more than once: only the last counts"

func readDict(value string, lookup func(string) (Category, bool), yes, no, known string) (p Prefs, use string, problems []string) {
	value = strings.Trim(value, " \t")
	if value == "" {
		return p, "", []string{"no preference given"}
	}
	d, err := httpsfv.UnmarshalDictionary([]string{value})
	if err != nil {
		hint := ""
		if _, lerr := httpsfv.UnmarshalDictionary([]string{strings.ToLower(value)}); lerr == nil {
			hint = "; keys are lower case"
		}
		return p, "", []string{NotADictionary + " (" + err.Error() + hint + "): RFC 9651 readers ignore the whole value, so every preference of the line is unknown"}
	}
	for _, k := range repeatedKeys(value) {
		problems = append(problems, fmt.Sprintf("%q %s", k, Repeated))
	}
	for _, k := range d.Names() {
		m, _ := d.Get(k)
		c, ok := lookup(k)
		if !ok && k == "use" && yes == "yes" {
			if t, isTok := itemToken(m); isTok && signalUse[t] {
				use = t
			} else {
				problems = append(problems, "\"use\" has the value "+describe(m)+", not immediate, reference or full")
			}
			continue
		}
		if !ok {
			problems = append(problems, "unknown category \""+k+"\" (known: "+known+"): readers ignore it")
			continue
		}
		switch t, isTok := itemToken(m); {
		case isTok && t == yes:
			c.Set(&p, PrefYes)
		case isTok && t == no:
			c.Set(&p, PrefNo)
		default:
			problems = append(problems, "\""+k+"\" has the value "+describe(m)+", not "+yes+" or "+no+": its preference is unknown")
		}
	}
	return p, use, problems
}

// itemToken returns the Token a member holds, parameters aside.
func itemToken(m httpsfv.Member) (string, bool) {
	it, ok := m.(httpsfv.Item)
	if !ok {
		return "", false
	}
	t, ok := it.Value.(httpsfv.Token)
	return string(t), ok
}

// describe names a member's value for a problem.
func describe(m httpsfv.Member) string {
	it, ok := m.(httpsfv.Item)
	if !ok {
		return "an inner list"
	}
	switch v := it.Value.(type) {
	case httpsfv.Token:
		return fmt.Sprintf("%q", string(v))
	case bool:
		if v {
			return "true (no \"=\")"
		}
		return "false"
	case string:
		return fmt.Sprintf("the string %q", v)
	case httpsfv.DisplayString:
		return fmt.Sprintf("the display string %q", string(v))
	case []byte:
		return "a byte sequence"
	case time.Time:
		return "the date @" + fmt.Sprint(v.Unix())
	case int64:
		return fmt.Sprintf("the integer %d", v)
	case float64:
		return fmt.Sprintf("the decimal %g", v)
	}
	return "another kind of value"
}

// repeatedKeys returns the keys a valid dictionary gives more than once,
// in order of their second appearance. Members are split at the commas
// outside strings and display strings (no other part of a member holds a
// comma); a member's key runs up to its "=", ";" or end.
func repeatedKeys(value string) []string {
	var members []string
	start, inString := 0, false
	for i := 0; i < len(value); i++ {
		switch c := value[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case c == ',' && !inString:
			members = append(members, value[start:i])
			start = i + 1
		}
	}
	members = append(members, value[start:])
	seen := map[string]int{}
	var out []string
	for _, m := range members {
		m = strings.TrimLeft(m, " \t")
		k := m
		if i := strings.IndexAny(m, "=; \t"); i >= 0 {
			k = m[:i]
		}
		if seen[k]++; seen[k] == 2 {
			out = append(out, k)
		}
	}
	return out
}
