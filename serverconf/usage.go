package serverconf

import (
	"fmt"
	"slices"
	"strings"

	"github.com/discgen/discgen/aipref"

	"github.com/discgen/discgen/robots"
)

// The Content-Usage response header (draft-ietf-aipref-attach-05 section
// 3) carries the site's usage preferences as an RFC 9651 dictionary
// (draft-ietf-aipref-vocab-07: train-ai and search, Tokens y and n), the
// same value as the robots.txt rule. A response is the same for every
// client, so the header says the site's preferences (usage), not a
// group's. Path-scoped preferences become path-scoped headers: every
// response gets the site's value, then each path's value where the path
// matches, tried from the shortest path to the longest with each match
// replacing the last, so that the longest matching path decides, as in
// robots.txt. Paths match as robots.txt readers match them, on the
// target as sent, and a target the servers do not read as those readers
// do gets no header (requestform.go): nginx and Apache match the raw
// target (rawPathRegexp), Caddy the decoded path (pathRegexp). Each value
// holds only dictionary keys and the tokens y and n: nothing in it needs
// quoting in any format.
//
// nginx sets a variable at server level (rewrite-module "if" and "set",
// before any location is chosen) and sends it with add_header at server
// level and in each of discgen's locations (add_header in a location
// replaces the server's). Apache sets it with mod_headers, each path in an
// <If> section (sections apply in order, after the file's main section).
// Caddy uses a header directive per path, each with a named path_regexp
// matcher so that they keep the file's order. _headers writes a rule per
// path ("/*", "/blog/*"): Netlify and Cloudflare Pages join the values of
// every matching rule with ", ", and a dictionary keeps the last value of
// a key, so the longest path, written last, decides; a path with "*"
// inside or "$" is left out there, with a warning (Warnings), and so is a
// key a longer path cannot unset (headersRules).

// usageRule is one value of the header and the canonical path it applies
// to ("" for every path).
type usageRule struct {
	path, value string
	prefs       aipref.Prefs
}

// usageRules returns the header values of u, from the site's (path "") to
// the longest path; nil when u states nothing the header can say.
func usageRules(u *robots.Usage) []usageRule {
	if u == nil {
		return nil
	}
	var out []usageRule
	base := aipref.UsageValue(u.Prefs)
	if base != "" {
		out = append(out, usageRule{"", base, u.Prefs})
	}
	var paths []usageRule
	seen := map[string]int{}
	for _, p := range u.Paths {
		c := robots.Canonical(p.Path)
		pp := p.Prefs.Over(u.Prefs)
		v := aipref.UsageValue(pp)
		if i, ok := seen[c]; ok {
			paths[i].value, paths[i].prefs = v, pp
			continue
		}
		seen[c] = len(paths)
		paths = append(paths, usageRule{c, v, pp})
	}
	slices.SortStableFunc(paths, func(a, b usageRule) int {
		if len(a.path) != len(b.path) {
			return len(a.path) - len(b.path)
		}
		return strings.Compare(a.path, b.path)
	})
	for _, p := range paths {
		if p.value != "" {
			out = append(out, p)
		}
	}
	if len(out) > 0 && out[0].path != "" {
		// No site value: paths without a preference get no header, but a
		// path's value must still be replaced by a longer path's only.
		out = append([]usageRule{{}}, out...)
	}
	return out
}

// headersPath is the _headers pattern of a canonical path: "/*" for every
// path, the path itself for one ending in "$", the path then "*" for a
// prefix; ok false for a path with "*" elsewhere, which _headers cannot
// say.
func headersPath(p string) (string, bool) {
	if p == "" {
		return "/*", true
	}
	if strings.Contains(strings.TrimSuffix(p, "*"), "*") || strings.Contains(p, ":") || ReservedEscape(p) != "" {
		return "", false
	}
	if q, ok := strings.CutSuffix(p, "$"); ok {
		return q, !strings.Contains(q, "$")
	}
	if strings.Contains(p, "$") {
		return "", false
	}
	return strings.TrimSuffix(p, "*") + "*", true
}

func nginxUsage(b *strings.Builder, u *robots.Usage) {
	rules := usageRules(u)
	if len(rules) == 0 {
		return
	}
	b.WriteString("\n# Server level: the Content-Usage header (draft-ietf-aipref-attach-05),\n")
	b.WriteString("# the longest matching path last.\n")
	for _, r := range rules {
		if r.path == "" {
			fmt.Fprintf(b, "set $discgen_usage \"%s\";\n", r.value)
			continue
		}
		if ReservedEscape(r.path) != "" {
			continue // requestform.go
		}
		fmt.Fprintf(b, "if (%s) { set $discgen_usage \"%s\"; } # %s\n", nginxRaw(r.path), r.value, r.path)
	}
	if scoped, query := guarded(usagePaths(rules)); scoped {
		fmt.Fprintf(b, "if ($request_uri ~ \"%s\") { set $discgen_usage \"\"; } # %s\n", rawGuard(query), guardNote)
	}
	b.WriteString("add_header Content-Usage $discgen_usage;\n")
}

func htaccessUsage(b *strings.Builder, u *robots.Usage) { htaccessUsageIn(b, u, "") }

// htaccessUsageIn is htaccessUsage for the paths that scope, a regular
// expression on the decoded path, also matches ("" every path).
func htaccessUsageIn(b *strings.Builder, u *robots.Usage, scope string) {
	rules := usageRules(u)
	if len(rules) == 0 {
		return
	}
	b.WriteString("\n# The Content-Usage header (draft-ietf-aipref-attach-05), the longest\n")
	b.WriteString("# matching path last (needs mod_headers).\n")
	// The "always" table: a redirect (mod_dir's 301 for a directory
	// without its slash) gets the header too, as it does on nginx and
	// Caddy.
	for _, r := range rules {
		set := fmt.Sprintf("Header always set Content-Usage \"%s\"", r.value)
		if r.value == "" {
			set = "Header always unset Content-Usage"
		}
		if r.path == "" {
			apacheHeaders(b, []string{scope}, set)
			continue
		}
		if ReservedEscape(r.path) != "" {
			continue // requestform.go
		}
		apacheSection(b, scope, []string{apacheRaw(r.path)}, set)
	}
	if scoped, query := guarded(usagePaths(rules)); scoped {
		apacheGuardSection(b, scope, query, "Header always unset Content-Usage")
	}
}

func caddyUsage(b *strings.Builder, u *robots.Usage) {
	rules := usageRules(u)
	if len(rules) == 0 {
		return
	}
	b.WriteString("\n# The Content-Usage header (draft-ietf-aipref-attach-05), the longest\n")
	b.WriteString("# matching path last.\n")
	for i, r := range rules {
		if r.value == "" {
			// Nothing to replace: Caddy would defer a deletion past every
			// header set, so none is written.
			continue
		}
		re := "^/"
		if r.path != "" {
			var ok bool
			if ReservedEscape(r.path) != "" {
				continue // requestform.go
			}
			if re, ok = pathRegexp(r.path, true); !ok {
				continue // refused by CheckAccess
			}
		}
		fmt.Fprintf(b, "@discgen_usage_%d path_regexp `%s`\n", i, re)
		fmt.Fprintf(b, "header @discgen_usage_%d Content-Usage \"%s\"\n", i, r.value)
	}
	if scoped, query := guarded(usagePaths(rules)); scoped {
		// A deletion is deferred past every header set: it wins.
		fmt.Fprintf(b, "@discgen_usage_odd expression `%s`\n", caddyRaw(rawGuard(query)))
		b.WriteString("header @discgen_usage_odd -Content-Usage\n")
	}
}

func headersUsage(b *strings.Builder, u *robots.Usage) {
	rules, dropped := headersRules(u)
	for _, r := range rules {
		p, ok := headersPath(r.path)
		if !ok {
			continue // Warnings says so
		}
		var c []aipref.Category
		for _, d := range dropped {
			c = append(c, d.cat)
		}
		v := aipref.UsageValue(without(r.prefs, c))
		if v == "" {
			continue
		}
		fmt.Fprintf(b, "\n%s\n  Content-Usage: %s\n", p, v)
	}
}

// headersDrop is a category _headers leaves out: the path of a rule that
// cannot unset it, and the shorter one whose value would reach there.
type headersDrop struct {
	cat         aipref.Category
	path, under string
}

// headersRules returns the header's rules for _headers and the categories
// it leaves out. Netlify and Cloudflare Pages join the values of every
// matching rule, so a longer path replaces a shorter one's value for the
// keys it states, but cannot unset one it does not state: a category that
// a shorter rule states and a longer rule under it does not is left out of
// every rule (Warnings says so).
func headersRules(u *robots.Usage) ([]usageRule, []headersDrop) {
	rules := usageRules(u)
	var dropped []headersDrop
	for _, c := range aipref.Categories {
		if c.ContentUsage == "" {
			continue
		}
		// A rule _headers cannot write leaves the value of a shorter rule
		// at its URLs: where the two differ, the category is left out.
	unwritable:
		for _, r := range rules {
			if _, ok := headersPath(r.path); ok {
				continue
			}
			for _, q := range rules {
				if _, ok := headersPath(q.path); ok && c.Get(q.prefs) != c.Get(r.prefs) && (q.path == "" || robots.MayOverlap(q.path, r.path)) {
					dropped = append(dropped, headersDrop{c, r.path, q.path})
					break unwritable
				}
			}
		}
		if slices.ContainsFunc(dropped, func(d headersDrop) bool { return d.cat.Manifest == c.Manifest }) {
			continue
		}
	find:
		for i, r := range rules {
			pi, ok := headersPath(r.path)
			if !ok || c.Get(r.prefs) != aipref.PrefUnset {
				continue
			}
			for _, q := range rules[:i] {
				pq, ok := headersPath(q.path)
				if ok && c.Get(q.prefs) != aipref.PrefUnset && strings.HasPrefix(strings.TrimSuffix(pi, "*"), strings.TrimSuffix(pq, "*")) {
					dropped = append(dropped, headersDrop{c, r.path, q.path})
					break find
				}
			}
		}
	}
	return rules, dropped
}

// without returns p stating nothing of cs.
func without(p aipref.Prefs, cs []aipref.Category) aipref.Prefs {
	for _, c := range cs {
		c.Set(&p, aipref.PrefUnset)
	}
	return p
}

// usageWarnings says what kinds cannot write of u's header.
func usageWarnings(kinds []Kind, u *robots.Usage) []string {
	var out []string
	rules := usageRules(u)
	for _, k := range kinds {
		if k != Headers {
			continue
		}
		for _, r := range rules {
			if _, ok := headersPath(r.path); !ok {
				out = append(out, fmt.Sprintf("_headers: the usage path %q %s: its Content-Usage header is not written there", r.path, headersCannot(r.path)))
			}
		}
		_, dropped := headersRules(u)
		for _, d := range dropped {
			under := d.under
			if under == "" {
				under = "every path"
			}
			if _, ok := headersPath(d.path); !ok {
				out = append(out, fmt.Sprintf("_headers cannot write the usage path %s, where %s differs from %s's: %s is left out of its Content-Usage header", d.path, d.cat.Manifest, under, d.cat.Manifest))
				continue
			}
			out = append(out, fmt.Sprintf("_headers joins the values of every matching rule and cannot unset %s at %s, which %s states: %s is left out of its Content-Usage header", d.cat.Manifest, d.path, under, d.cat.Manifest))
		}
	}
	return out
}

// checkUsage returns an error for each path of u's header that kinds
// cannot match faithfully: in Caddy, escapes that do not decode to UTF-8.
func checkUsage(kinds []Kind, u *robots.Usage) []error {
	var errs []error
	if !slices.Contains(kinds, Caddy) {
		return nil
	}
	for _, r := range usageRules(u) {
		if r.path == "" {
			continue
		}
		if _, ok := pathRegexp(r.path, true); !ok {
			errs = append(errs, fmt.Errorf("caddy: cannot write the Content-Usage header for %s: its escapes do not decode to UTF-8, and Caddy matches characters", r.path))
		}
	}
	return errs
}
