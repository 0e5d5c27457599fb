package schema_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// discgen leaves a failed pattern to its semantic rules (they word the
// refusal with a hint), so a pattern must never refuse a value those rules
// accept: the schema may only be looser. Each field's pattern is checked
// against mutations of valid values: whenever discgen accepts one, the
// pattern must match it.
func TestPatternsNeverRefuseWhatDiscgenAccepts(t *testing.T) {
	d := doc(t)
	pattern := func(ptr string) *regexp.Regexp {
		var cur any = d
		for tok := range strings.SplitSeq(strings.TrimPrefix(ptr, "/"), "/") {
			switch c := cur.(type) {
			case map[string]any:
				cur = c[tok]
			case []any:
				var i int
				fmt.Sscan(tok, &i)
				cur = c[i]
			}
		}
		m, _ := cur.(map[string]any)
		p, ok := m["pattern"].(string)
		if !ok {
			t.Fatalf("%s has no pattern", ptr)
		}
		return regexp.MustCompile(p)
	}
	for _, f := range []struct {
		schema   string   // the pointer of the schema holding the pattern
		manifest string   // the manifest, %s the value as a JSON string
		seeds    []string // valid values
	}{
		{"/$defs/agent_name", "agents: [{names: [%s], disallow: [/]}]", []string{"*", "Googlebot", "bing-bot_x"}},
		{"/$defs/agent_name", "agents: [{names: [\"*\"], disallow: [/]}]\nexpect: [{agent: %s, allowed: [/a]}]", []string{"examplebot"}},
		{"/$defs/rules/items", "agents: [{names: [\"*\"], disallow: [%s]}]", []string{"/", "/a/b.html", "*.pdf$", "/%7Emak/", "/a*b"}},
		{"/$defs/rules/items", "datasets: [{path: /d.csv}]\ndata_txt: {disallow: [%s]}", []string{"/private/", "/x"}},
		{"/properties/host", "host: %s", []string{"www.example.org", "example.org:8080", "a-b.c"}},
		{"/properties/sitemaps/items", "sitemaps: [%s]", []string{"https://example.org/sitemap.xml", "http://a.example:8080/s?x=1"}},
		{"/$defs/site/properties/url", "", []string{"https://example.org/", "http://example.org", "https://[::1]:8443/"}},
		{"/properties/mobile_agents/items/properties/path", "mobile_agents: [{path: %s, server: none}]", []string{"/", "/home/"}},
		{"/properties/mobile_agents/items/properties/server", "mobile_agents: [{path: /, server: %s}]", []string{"none", "atp://example.org:8001", "x+y.z://h"}},
		{"/properties/datasets/items/properties/path", "datasets: [{path: %s}]", []string{"/d.csv", "/data/x%20y.json"}},
		{"/properties/datasets/items/properties/type", "datasets: [{path: /d, type: %s}]", []string{"text/csv", "application/vnd.x+json"}},
		{"/$defs/agents/items/properties/extensions/items/properties/field", "agents: [{names: [\"*\"], disallow: [/], extensions: [{field: %s, value: v}]}]", []string{"Clean-param", "X_1"}},
		{"/$defs/files/propertyNames", "files: {%s: v}", []string{"x-contact.txt", "x-a_b.c"}},
		{"/$defs/autodisc_name", "delegations: [{path: /p/, only: [%s]}]", []string{"icons.txt", "robots.txt", "x-notes.txt"}},
		{"/$defs/security_txt/properties/expires", "well_known: {security_txt: {contact: \"mailto:a@example.org\", expires: %s}}", []string{"180d", "26w", "2000h", "1y", "2027-06-01T00:00:00Z", "2027-06-01T02:00:00.5+02:00"}},
		{"/$defs/contacts/oneOf/0", "well_known: {security_txt: {contact: %s, expires: 180d}}", []string{"mailto:a@example.org", "tel:+1-555-0100", "https://example.org/s"}},
		{"/$defs/security_txt/properties/preferred_languages/items", "well_known: {security_txt: {contact: \"mailto:a@example.org\", expires: 180d, preferred_languages: [%s]}}", []string{"en", "en-GB", "zh-Hant-TW", "i-klingon"}},
		{"/$defs/well_known_file/properties/name", "well_known: {files: [{name: %s, content: x}]}", []string{"gpc.json", "nodeinfo", "a%20b", "x@y:z"}},
	} {
		re := pattern(f.schema)
		rng := rand.New(rand.NewPCG(1, 2))
		accepted := 0
		for i := range 600 {
			v := f.seeds[i%len(f.seeds)]
			if i >= len(f.seeds) {
				v = mutate(rng, v)
			}
			q, _ := json.Marshal(v)
			var yml string
			if f.manifest == "" { // the value is the site URL
				yml = fmt.Sprintf("version: 1\nsite: {url: %s}\n", q)
			} else {
				yml = base + fmt.Sprintf(f.manifest, q) + "\n"
			}
			errs, _ := discgenErrors(t, agreeCase{name: f.schema, yaml: yml})
			if len(errs) > 0 {
				if i < len(f.seeds) {
					t.Fatalf("%s: seed %q refused: %v", f.schema, v, errs)
				}
				continue
			}
			accepted++
			if !re.MatchString(v) {
				t.Errorf("%s: discgen accepts %q, the pattern %s refuses it", f.schema, v, re)
			}
		}
		if accepted < 20 {
			t.Errorf("%s: only %d of 600 values accepted; the mutations are too wild to test anything", f.schema, accepted)
		}
	}
}

// mutate makes one to three random edits (insert, replace, delete) with
// characters that patterns treat specially.
func mutate(rng *rand.Rand, s string) string {
	const alphabet = "aZ09-_.*/:@%~ #$!&'()+,;=?[]tTzZ+-:.\\é\t"
	chars := []rune(alphabet)
	r := []rune(s)
	for range 1 + rng.IntN(3) {
		c := chars[rng.IntN(len(chars))]
		i := rng.IntN(len(r) + 1)
		switch rng.IntN(3) {
		case 0:
			r = append(r[:i], append([]rune{c}, r[i:]...)...)
		case 1:
			if i < len(r) {
				r[i] = c
			}
		case 2:
			if i < len(r) {
				r = append(r[:i], r[i+1:]...)
			}
		}
	}
	out := string(r)
	if !utf8.ValidString(out) || strings.ContainsRune(out, 0) {
		return s
	}
	return out
}
