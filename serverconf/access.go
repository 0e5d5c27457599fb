package serverconf

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/discgen/discgen/internal/rfc3986"
	"github.com/discgen/discgen/robots"
)

// Access is what a server does besides setting headers on the tree's
// files: refuse crawlers the manifest enforces, and mark the whole site
// noindex.
//
// Refusal follows robots.txt semantics for each enforced agent: the
// agent's rules, tried from shortest to longest with Disallow before Allow
// at equal length, each match overriding the last, so that the longest
// matching rule decides and Allow wins a tie (RFC 9309). A request is the
// agent's when its User-Agent claims the agent's name by a product, as RFC
// 9110 writes the field (uaRegexp): "Mozilla/5.0 (compatible; GPTBot/1.1;
// +https://openai.com/gptbot)" is GPTBot's, "Mozilla/5.0 (compatible;
// FooBot/1.0; +https://example.com/gptbot)" is not.
// Rules are matched against the decoded path, as each server decodes it;
// every character but letters, digits, '/', '_' and '-' is written as a
// \xHH byte escape, so the regular expressions need no quoting and match
// the UTF-8 bytes of the path. '*' matches any run, a final '$' the end.
// /robots.txt is never refused.
//
// nginx refuses with server-level "if" and "set" (the rewrite module), so
// the snippet refuses before any location is chosen; Apache with
// mod_rewrite in .htaccess (needs AllowOverride FileInfo and Options
// FollowSymLinks); Caddy with vars and matchers, and a handle block that
// answers 403 (Caddy runs handle before route and respond, so a route
// would come too late wherever the site serves its files in handle
// blocks; import the snippet before them). _headers can
// only send X-Robots-Tag: Netlify and Cloudflare Pages cannot refuse a
// request by its User-Agent there.
type Access struct {
	Enforce []robots.Enforcement
	Noindex bool
	// Usage is the site's usage preferences, sent as the Content-Usage
	// header (usage.go); nil for none.
	Usage *robots.Usage
	// Tenants is the delegations whose tenants a glob finds: one rule each
	// for their autodisc files (tenants.go).
	Tenants []TenantSpace
	// Verified is the identity checks of groups with verified: true
	// (verified.go); nil for none.
	Verified *Verified
	// Redirects are resources answered with a redirect, such as
	// /.well-known/change-password (wellknownfiles.go).
	Redirects []Redirect
	// Rights is the site's licence and reservation (license.go).
	Rights Rights
	// Throttle is the classes of crawlers slowed rather than refused
	// (throttle.go); nil for none.
	Throttle *Throttle
}

func (a Access) empty() bool { return len(a.Enforce) == 0 && !a.Noindex }

// pathRegexp is a canonical rule path as a regular expression on the
// decoded path: an escape matches the byte it stands for, a raw '*' any
// run, a final raw '$' the end. For PCRE (nginx, Apache) every byte is
// written, \xHH where it is not a letter, digit, '/', '_' or '-'. Go's
// RE2 (Caddy) matches code points, not bytes: runs of bytes are written as
// the characters they encode (\x{HHHH}), and a run that is not UTF-8
// cannot be written (ok false).
func pathRegexp(p string, re2 bool) (re string, ok bool) {
	var b strings.Builder
	b.WriteByte('^')
	var lit []byte
	flush := func() bool {
		defer func() { lit = lit[:0] }()
		if !re2 {
			b.WriteString(byteEscape(string(lit)))
			return true
		}
		if !utf8.Valid(lit) {
			return false
		}
		for _, r := range string(lit) {
			if r < utf8.RuneSelf {
				b.WriteString(byteEscape(string(r)))
			} else {
				fmt.Fprintf(&b, `\x{%04x}`, r)
			}
		}
		return true
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '%' && i+2 < len(p) && rfc3986.IsHex(p[i+1]) && rfc3986.IsHex(p[i+2]):
			lit = append(lit, rfc3986.Unhex(p[i+1])<<4|rfc3986.Unhex(p[i+2]))
			i += 2
		case c == '*':
			if !flush() {
				return "", false
			}
			b.WriteString(".*")
		case c == '$' && i == len(p)-1:
			if !flush() {
				return "", false
			}
			b.WriteByte('$')
		default:
			lit = append(lit, c)
		}
	}
	if !flush() {
		return "", false
	}
	return b.String(), true
}

// byteEscape writes every byte but letters, digits, '/', '_' and '-' as
// \xHH.
func byteEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isAlnum(c) || c == '/' || c == '_' || c == '-' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	return b.String()
}

// Warnings says what kinds cannot do of a: _headers cannot refuse.
func Warnings(kinds []Kind, a Access) []string {
	out := append(usageWarnings(kinds, a.Usage), tenantWarnings(kinds, a.Tenants)...)
	out = append(out, rightsWarnings(kinds, a.Rights)...)
	for _, k := range kinds {
		if k == Headers && len(a.Enforce) > 0 {
			var names []string
			for _, e := range a.Enforce {
				names = append(names, e.Agent)
			}
			out = append(out, fmt.Sprintf("_headers cannot refuse requests (Netlify and Cloudflare Pages match no User-Agent there): enforce is not applied there for %s", strings.Join(names, ", ")))
		}
	}
	return out
}

func nginxAccess(b *strings.Builder, a Access) {
	if a.empty() {
		return
	}
	b.WriteString("\n# Server level: these run before any location is chosen.\n")
	if a.Noindex {
		b.WriteString("add_header X-Robots-Tag \"noindex\" always;\n")
	}
	for i, e := range a.Enforce {
		v := fmt.Sprintf("$discgen_%d", i+1)
		fmt.Fprintf(b, "# enforce: %s (robots.txt rules, longest match last)\n", e.Agent)
		fmt.Fprintf(b, "set %s \"\";\nset %s_deny 0;\n", v, v)
		nginxUAIf(b, v+"_ua", e.Agent, fmt.Sprintf("set %s \":$uri\";", v))
		for _, r := range e.Rules {
			re, _ := pathRegexp(r.Path, false)
			fmt.Fprintf(b, "if (%s ~ \"^:%s\") { set %s_deny %d; } # %s\n", v, re[1:], v, deny(r), r)
		}
		if scoped, query := guarded(rulePaths(e.Rules)); scoped {
			fmt.Fprintf(b, "if ($request_uri ~ \"%s\") { set %s \"!%s\"; } # %s\n", rawGuard(query), v, v, guardNote)
			fmt.Fprintf(b, "if (%s ~ \"^!:\") { set %s_deny 1; }\n", v, v)
		}
		fmt.Fprintf(b, "if ($uri = /robots.txt) { set %s_deny 0; }\n", v)
		fmt.Fprintf(b, "if (%s_deny) { return 403; }\n", v)
	}
}

// deny is the value a rule gives a server's "refuse" variable.
func deny(r robots.PathRule) int {
	if r.Allow {
		return 0
	}
	return 1
}

func htaccessAccess(b *strings.Builder, a Access) {
	if a.empty() {
		return
	}
	if a.Noindex {
		b.WriteString("\n<IfModule mod_headers.c>\n    Header always set X-Robots-Tag \"noindex\"\n</IfModule>\n")
	}
	if len(a.Enforce) == 0 {
		return
	}
	b.WriteString("\n# enforce: refuse crawlers where robots.txt disallows them (mod_rewrite;\n")
	b.WriteString("# needs AllowOverride FileInfo and Options FollowSymLinks).\n")
	htaccessEnforceIn(b, a, "")
}

// htaccessEnforceIn writes the mod_rewrite refusals of a's enforced
// agents, for the paths that scope, a regular expression on the decoded
// path, also matches ("" every path).
func htaccessEnforceIn(b *strings.Builder, a Access, scope string) {
	b.WriteString("<IfModule mod_rewrite.c>\n    RewriteEngine On\n")
	for i, e := range a.Enforce {
		v := fmt.Sprintf("DISCGEN_DENY_%d", i+1)
		fmt.Fprintf(b, "    # %s\n", e.Agent)
		for _, r := range e.Rules {
			b.WriteString(apacheUAConds(e.Agent))
			re, _ := pathRegexp(r.Path, false)
			fmt.Fprintf(b, "    RewriteCond %%{REQUEST_URI} \"%s\"\n", re)
			fmt.Fprintf(b, "    RewriteRule ^ - [E=%s:%d]\n", v, deny(r))
		}
		if scoped, query := guarded(rulePaths(e.Rules)); scoped {
			fmt.Fprintf(b, "    # %s: refused\n", guardNote)
			b.WriteString(apacheUAConds(e.Agent))
			fmt.Fprintf(b, "    RewriteCond %%{THE_REQUEST} \"%s\"\n", apacheGuard(query))
			fmt.Fprintf(b, "    RewriteRule ^ - [E=%s:1]\n", v)
		}
		fmt.Fprintf(b, "    RewriteCond %%{ENV:%s} =1\n", v)
		if scope != "" {
			fmt.Fprintf(b, "    RewriteCond %%{REQUEST_URI} \"%s\"\n", scope)
		}
		b.WriteString("    RewriteCond %{REQUEST_URI} !=/robots.txt\n")
		b.WriteString("    RewriteRule ^ - [F]\n")
	}
	b.WriteString("</IfModule>\n")
}

func caddyAccess(b *strings.Builder, a Access) {
	if a.empty() {
		return
	}
	if a.Noindex {
		b.WriteString("\nheader X-Robots-Tag \"noindex\"\n")
	}
	if len(a.Enforce) == 0 {
		return
	}
	b.WriteString("\n# enforce: refuse crawlers where robots.txt disallows them\n")
	b.WriteString("# (vars keep their order; handle runs before any route or respond of\n")
	b.WriteString("# the site, and before its other handle blocks when imported first)\n")
	var route strings.Builder
	for i, e := range a.Enforce {
		fmt.Fprintf(b, "# %s\n", e.Agent)
		for j, r := range e.Rules {
			re, ok := pathRegexp(r.Path, true)
			if !ok {
				continue // refused by Check
			}
			name := fmt.Sprintf("@discgen_enforce_%d_%d", i+1, j+1)
			fmt.Fprintf(b, "%s {\n\t%s\n\tpath_regexp `%s`\n}\n", name, caddyUAMatcher(e.Agent), re)
			fmt.Fprintf(&route, "vars %s discgen_deny_%d %d\n", name, i+1, deny(r))
		}
		if scoped, query := guarded(rulePaths(e.Rules)); scoped {
			name := fmt.Sprintf("@discgen_enforce_%d_odd", i+1)
			fmt.Fprintf(b, "%s {\n\t%s\n\texpression `%s`\n}\n", name, caddyUAMatcher(e.Agent), caddyRaw(rawGuard(query)))
			fmt.Fprintf(&route, "vars %s discgen_deny_%d 1\n", name, i+1)
		}
		fmt.Fprintf(b, "@discgen_deny_%d {\n\tvars discgen_deny_%d 1\n\tnot path /robots.txt\n}\n", i+1, i+1)
	}
	b.WriteString(route.String())
	for i := range a.Enforce {
		fmt.Fprintf(b, "handle @discgen_deny_%d {\n\trespond 403\n}\n", i+1)
	}
}

func headersAccess(b *strings.Builder, a Access) {
	if !a.Noindex {
		return
	}
	b.WriteString("\n/*\n  X-Robots-Tag: noindex\n")
}

// CheckAccess returns an error for each rule of a that kinds cannot write
// faithfully: in Caddy (Go regular expressions match characters, not
// bytes), a path whose escapes do not decode to UTF-8.
func CheckAccess(kinds []Kind, a Access) []error {
	errs := append(checkUsage(kinds, a.Usage), checkTenants(kinds, a.Tenants)...)
	errs = append(errs, checkRights(kinds, a.Rights)...)
	errs = append(errs, checkUserAgents(kinds, a)...)
	for _, k := range kinds {
		if k != Caddy {
			continue
		}
		for _, e := range a.Enforce {
			for _, r := range e.Rules {
				if _, ok := pathRegexp(r.Path, true); !ok {
					errs = append(errs, fmt.Errorf("caddy: cannot enforce %s for %s: its escapes do not decode to UTF-8, and Caddy matches characters", r, e.Agent))
				}
			}
		}
	}
	return errs
}
