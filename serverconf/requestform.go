package serverconf

import (
	"strings"

	"github.com/discgen/discgen/internal/rfc3986"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/tdmrep"
)

// Servers and the files read a URL differently. robots.txt readers (RFC
// 9309, google/robotstxt) and TDMRep readers match a pattern against the
// path and query as the client sent them: "/a%2Fb/" is not "/a/b/",
// "/a//b" is not "/a/b", and "/*.pdf$" does not match "/a.pdf?x=1". The
// servers match a rule against the path they decoded and cleaned: nginx's
// $uri and Apache's REQUEST_URI decode every escape, merge "//" and
// resolve dot segments (Caddy's path matchers the same), and none holds
// the query. Both readings agree on a request target in normal form: no
// escape but those the canonical form keeps (robots.Canonical: upper-case
// hex, of a character that must stay escaped), no raw byte it would
// escape, no empty segment and no dot segment; and, where a rule is
// query-sensitive ('*' followed by more, a final '$', '?'), no query.
//
// So the configuration does two things:
//
//   - A rule whose path holds an escaped reserved character that may also
//     appear raw in a path (%2F, %3A, %40, %21, %24, %26, %27, %28, %29,
//     %2A, %2B, %2C, %3B, %3D, %5B, %5D) is not written: it matches only
//     targets that hold the escape, and a server would match it against
//     the character's raw form too ("/a/b/" for "/a%2Fb/"), a URL the files
//     say nothing of.
//   - A request whose target is not in normal form gets none of the
//     path-scoped headers (Content-Usage, tdm-reservation, tdm-policy),
//     and an enforced crawler's such request is refused: the server reads
//     the raw target (nginx $request_uri, Apache THE_REQUEST, Caddy
//     {http.request.orig_uri}) for that. A reader then takes robots.txt's
//     and tdmrep.json's word, which read the URL as sent; no header grants
//     what the files withhold.
//
// /robots.txt is never refused: the exemption comes after the guard and
// reads the decoded path, so "/robots.txt?x" and "/%72obots.txt" are
// served too (the file is public; robots.txt readers take only the first
// for /robots.txt).

// serverDecoded is the set of characters whose escape a server decodes
// into a character that may also appear raw in a path: a rule holding the
// escape is not written (see above). "?" and "#" are not among them: they
// never appear raw in a path, so their escape means the same to both.
const serverDecoded = "/:@!$&'()*+,;=[]"

// ReservedEscape returns the first escape in a canonical path of a
// character in serverDecoded, or "": a rule with one cannot be written for
// nginx, Apache, Caddy or _headers.
func ReservedEscape(p string) string {
	for i := 0; i+2 < len(p); i++ {
		if p[i] != '%' || !rfc3986.IsHex(p[i+1]) || !rfc3986.IsHex(p[i+2]) {
			continue
		}
		v := rfc3986.Unhex(p[i+1])<<4 | rfc3986.Unhex(p[i+2])
		if strings.IndexByte(serverDecoded, v) >= 0 {
			return p[i : i+3]
		}
		i += 2
	}
	return ""
}

// oddTarget is the regular expression, the same in PCRE and RE2, that
// finds in the path part of a raw request target what keeps it from the
// normal form: an empty segment, a dot segment, an escape with a
// lower-case hex digit, an escape of a character the canonical form
// writes raw (unreserved, sub-delims, ":", "@", "/", "[", "]"), a raw byte
// it escapes (controls, non-ASCII, "\"<>\\^`{|}"). Characters that quoting
// in a format could take for its own are written \xHH.
const oddTarget = `//|/\.\.?(?:[/?\x20]|$)|%(?:[a-f][0-9a-fA-F]|[0-9A-F][a-f])` +
	`|%(?:2[146-9A-F]|3[0-9ABD]|4[0-9A-F]|5[0-9ABDF]|6[1-9A-F]|7[0-9AE])` +
	`|[^\x20-\x7e]|[\x22\x3c\x3e\x5c\x5e\x60\x7b\x7c\x7d]`

// rawGuard is the regular expression that matches a raw request target
// (starting at its path, as nginx's $request_uri and Caddy's
// {http.request.orig_uri} hold it) that is not in normal form; with
// query, any target with a query too.
func rawGuard(query bool) string {
	alt := oddTarget
	if query {
		alt += `|\?`
	}
	return `^[^?]*(?:` + alt + `)`
}

// apacheGuard is rawGuard for Apache's THE_REQUEST, the request line
// ("GET /a%2Fb HTTP/1.1").
func apacheGuard(query bool) string {
	alt := oddTarget
	if query {
		alt += `|\?`
	}
	return `^\S+ [^?\x20]*(?:` + alt + `)`
}

// NormalTarget reports whether nginx, Apache and Caddy read the raw
// request target (path and query, as sent) as robots.txt and TDMRep
// readers do; query says whether a query keeps it from that (a
// query-sensitive rule is written). It is the Go form of rawGuard.
func NormalTarget(target string, query bool) bool {
	path, _, hasQuery := strings.Cut(target, "?")
	if hasQuery && query {
		return false
	}
	if strings.Contains(path, "//") {
		return false
	}
	for _, seg := range strings.Split(path, "/") {
		if seg == "." || seg == ".." {
			return false
		}
	}
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case c == '%':
			if i+2 >= len(path) || !rfc3986.IsHex(path[i+1]) || !rfc3986.IsHex(path[i+2]) {
				continue // a server answers 400
			}
			h, l := path[i+1], path[i+2]
			if 'a' <= h && h <= 'f' || 'a' <= l && l <= 'f' {
				return false
			}
			v := rfc3986.Unhex(h)<<4 | rfc3986.Unhex(l)
			if v > ' ' && v < 0x7f && !strings.ContainsRune("\"#%<>?\\^`{|}", rune(v)) {
				return false
			}
			i += 2
		case c < ' ' || c >= 0x7f || strings.IndexByte("\"<>\\^`{|}", c) >= 0:
			return false
		}
	}
	return true
}

// guardNote is the comment beside a guard in nginx configuration.
const guardNote = "a target servers do not read as robots.txt readers do"

// guarded says whether the rules of the canonical paths need the guard
// (a path-scoped rule, written or left out for an escaped reserved
// character, whose URLs only a target holding the escape reaches) and
// whether it covers queries (a written rule is query-sensitive).
func guarded(paths []string) (scoped, query bool) {
	for _, p := range paths {
		if p == "" || p == "/" {
			continue
		}
		scoped = true
		query = query || ReservedEscape(p) == "" && robots.QuerySensitive(p)
	}
	return scoped, query
}

// usagePaths returns the paths of rules.
func usagePaths(rules []usageRule) []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = r.path
	}
	return out
}

// tdmLocations returns the locations of rules.
func tdmLocations(rules []tdmrep.Rule) []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = robots.Canonical(r.Location)
	}
	return out
}

// apacheGuardSection writes an <If> section on the raw request line,
// within the paths scope also matches ("" every path), holding lines.
func apacheGuardSection(b *strings.Builder, scope string, query bool, lines ...string) {
	b.WriteString("# " + guardNote + ": no path-scoped header\n")
	apacheSection(b, scope, []string{"%{THE_REQUEST} =~ m#" + apacheGuard(query) + "#"}, lines...)
}

// headersCannot says why _headers cannot match the canonical path p.
func headersCannot(p string) string {
	if e := ReservedEscape(p); e != "" {
		return "holds " + e + ", which Netlify and Cloudflare Pages may decode before matching, as every server does"
	}
	return "has a \"*\" inside, \"$\" or \":\", which _headers cannot match"
}

// rulePaths returns the paths of rules.
func rulePaths(rules []robots.PathRule) []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = r.Path
	}
	return out
}

// caddyRaw is the CEL expression that matches the raw request target
// against re: Caddy 2.6's vars_regexp reads no placeholder, and its
// expression matcher does (a raw CEL string keeps the backslashes).
func caddyRaw(re string) string {
	return `{http.request.orig_uri}.matches(r"` + re + `")`
}

// rawPathRegexp is a canonical rule path (without an escaped reserved
// character) as a regular expression on the raw request target, for the
// targets in normal form, the only ones that get a path-scoped header:
// there the target is the canonical form of the decoded path, so the
// path's bytes match themselves (upper-case escapes included), '*' any
// run within the path and a final '$' the path's end. nginx and Apache
// match it against $request_uri and THE_REQUEST, which an internal
// redirect (a directory's index file) does not change, unlike $uri and
// REQUEST_URI: "/" served as /index.html is read as "/", as robots.txt
// readers read it.
func rawPathRegexp(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '*':
			b.WriteString(`[^?\x20]*`)
		case c == '$' && i == len(p)-1:
			b.WriteString(`(?:[?\x20]|$)`)
		default:
			b.WriteString(byteEscape(string(c)))
		}
	}
	return b.String()
}

// nginxRaw is the nginx condition that $request_uri is at canonical path p.
func nginxRaw(p string) string { return `$request_uri ~ "^` + rawPathRegexp(p) + `"` }

// apacheRaw is the Apache expression that the request line's target is at
// canonical path p.
func apacheRaw(p string) string { return `%{THE_REQUEST} =~ m#^\S+ ` + rawPathRegexp(p) + `#` }

// apacheSection writes an <If> section holding lines, on the conditions
// conds (Apache expressions) and, with scope, the decoded path matching
// it; at least one condition.
func apacheSection(b *strings.Builder, scope string, conds []string, lines ...string) {
	if scope != "" {
		conds = append([]string{"%{REQUEST_URI} =~ m#" + scope + "#"}, conds...)
	}
	b.WriteString("<If \"" + strings.Join(conds, " && ") + "\">\n    <IfModule mod_headers.c>\n")
	for _, l := range lines {
		b.WriteString("        " + l + "\n")
	}
	b.WriteString("    </IfModule>\n</If>\n")
}
