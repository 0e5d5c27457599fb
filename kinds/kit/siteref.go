package kit

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/discgen/discgen/internal/rfc3986"
)

// CheckSiteRef checks a URL that resolves against site.url (an llms.txt
// link, an api-catalog anchor or href; what names it in the message): an
// absolute http(s) URL, or a relative reference that stays inside the
// site. It returns "" for a good one, else the message. "/docs/../../x"
// would resolve to /x by RFC 3986's rules, which is surely not what was
// meant, so a relative reference whose ".." segments climb above the root
// is refused.
func CheckSiteRef(s, what string) string {
	if strings.ContainsAny(s, " \t") {
		return fmt.Sprintf("%q: %s cannot contain white space", s, what)
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && (i+2 >= len(s) || !rfc3986.IsHex(s[i+1]) || !rfc3986.IsHex(s[i+2])) {
			return fmt.Sprintf("%q: \"%%\" must start an escape such as %%20", s)
		}
	}
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Sprintf("%q is not a valid URI reference", s)
	}
	if u.IsAbs() && ((u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
		return fmt.Sprintf("%q: %s must be a path or an absolute http(s) URL", s, what)
	}
	if !u.IsAbs() && u.Host == "" && leavesRoot(u.EscapedPath()) {
		return fmt.Sprintf("%q leaves the site through \"..\": relative URLs resolve against site.url and must stay inside it; give a path from the root or an absolute URL", s)
	}
	return ""
}

// leavesRoot reports whether a relative path, resolved against "/",
// climbs above it: more ".." segments (written plainly or with %2E) than
// directories before them.
func leavesRoot(p string) bool {
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	depth := 0
	for i, seg := range segs {
		switch strings.ReplaceAll(strings.ToLower(seg), "%2e", ".") {
		case "..":
			depth--
			if depth < 0 {
				return true
			}
		case ".":
		default:
			if i < len(segs)-1 {
				depth++
			}
		}
	}
	return false
}

// ResolveSiteRef resolves ref, which CheckSiteRef passed, against base
// (site.url) and writes it in canonical form: the host in lower case, the
// path, query and fragment as rfc3986.Canonical writes them. A reference
// that does not parse is returned as it is.
func ResolveSiteRef(base *url.URL, ref string) string {
	u, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	u = base.ResolveReference(u)
	var b strings.Builder
	b.WriteString(u.Scheme)
	b.WriteString("://")
	if u.User != nil {
		b.WriteString(u.User.String())
		b.WriteByte('@')
	}
	b.WriteString(strings.ToLower(u.Host))
	b.WriteString(rfc3986.Canonical(u.EscapedPath()))
	if u.ForceQuery || u.RawQuery != "" {
		b.WriteByte('?')
		b.WriteString(rfc3986.Canonical(u.RawQuery))
	}
	if u.Fragment != "" {
		b.WriteByte('#')
		b.WriteString(rfc3986.Canonical(u.EscapedFragment()))
	}
	return b.String()
}
