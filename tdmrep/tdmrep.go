// Package tdmrep writes and reads the W3C TDM Reservation Protocol
// (TDMRep, Community Group final report of 2024-05-10; its source is
// spec/index.html of github.com/w3c/tdm-reservation-protocol):
// /.well-known/tdmrep.json and the tdm-reservation and tdm-policy response
// headers, which say whether text-and-data-mining rights are reserved
// (EU Directive 2019/790, Article 4).
//
// tdmrep.json is a JSON array of rules, each with a location (a path
// pattern read as robots.txt reads Allow and Disallow: "*" and a final
// "$"), a tdm-reservation of 1 or 0 and an optional tdm-policy URL. The
// report has a reader use the first rule whose location matches ("the
// most specific match is the first in sequence"), so Rules orders them
// from the longest location to the shortest: the first match is then the
// longest match, which is what the manifest's paths mean, as they do in
// robots.txt. The report drops every reservation value but 1 and 0; a
// reader treats another as no reservation.
package tdmrep

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/discgen/discgen/robots"
)

// Version names the report this package follows.
const Version = "W3C TDMRep, Community Group final report 2024-05-10"

// Path is where the file is served.
const Path = "/.well-known/tdmrep.json"

// Rule is one entry of tdmrep.json.
type Rule struct {
	Location    string // canonical robots.txt pattern
	Reservation int    // 1 reserved, 0 not reserved
	Policy      string // absolute URL, or ""
}

// Sort orders rules as the file lists them: longest location first, so
// that a reader's first match is the longest; equal lengths by location.
func Sort(rules []Rule) {
	slices.SortStableFunc(rules, func(a, b Rule) int {
		if len(a.Location) != len(b.Location) {
			return len(b.Location) - len(a.Location)
		}
		return strings.Compare(a.Location, b.Location)
	})
}

// Marshal writes rules (in Sort's order) as tdmrep.json: one rule a
// line group, keys in the report's order, ending in a newline.
func Marshal(rules []Rule) []byte {
	var b bytes.Buffer
	b.WriteString("[")
	for i, r := range rules {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  {\n    \"location\": ")
		writeString(&b, r.Location)
		b.WriteString(",\n    \"tdm-reservation\": ")
		b.WriteString(strconv.Itoa(r.Reservation))
		if r.Policy != "" {
			b.WriteString(",\n    \"tdm-policy\": ")
			writeString(&b, r.Policy)
		}
		b.WriteString("\n  }")
	}
	if len(rules) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	return b.Bytes()
}

func writeString(b *bytes.Buffer, s string) {
	enc, _ := json.Marshal(s) // a string always marshals
	b.Write(enc)
}

// Lookup returns the rule a reader applies to the URL path (the first
// whose location matches, in the file's order), and false when none
// matches: the reservation is then unset.
func Lookup(rules []Rule, path string) (Rule, bool) {
	path = robots.Canonical(path)
	for _, r := range rules {
		if robots.PatternMatches(path, robots.Canonical(r.Location)) {
			return r, true
		}
	}
	return Rule{}, false
}
