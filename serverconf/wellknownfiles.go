package serverconf

import (
	"fmt"
	"strings"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/registry"
	"github.com/discgen/discgen/tree"
)

// Redirects. Some resources are a redirect rather than a file:
// /.well-known/change-password (W3C "A Well-Known URL for Changing
// Passwords" asks for 302, 303 or 307 and a Location) is the one a
// manifest names. Each format answers the exact path with the status and
// the target as written (a path of the site, which the server makes
// absolute, or an absolute URL):
//
//	nginx     location = /.well-known/change-password { return 302 "/account/password"; }
//	Apache    RedirectMatch 302 "^/[.]well-known/change-password$" "/account/password"  (mod_alias)
//	Caddy     redir /.well-known/change-password "/account/password" 302
//	Netlify   _redirects: /.well-known/change-password /account/password 302
//
// _headers cannot redirect: with it, the redirects go to a _redirects file
// beside it, which Netlify and Cloudflare Pages read.
//
// The files that must not be redirected (apple-app-site-association,
// assetlinks.json: iOS and Android follow no redirect) are served like
// every file of the tree, from the exact path with a 200 and the media
// type of their specification: apple-app-site-association and
// assetlinks.json application/json (headers.go), and each kind of the
// registry the type it declares (byKindPath: traffic-advice
// application/trafficadvice+json, atproto-did text/plain).

// byKindPath maps the tree path of each kind of the registry that is
// served as a file to the media type the kind declares.
var byKindPath = func() map[string]string {
	m := map[string]string{}
	for _, k := range registry.All() {
		if t := k.MediaType(); t != "" {
			m[k.Path()] = t
		}
	}
	return m
}()

// servedKinds are the kinds of the registry whose files are served with
// the headers they name (kit.Served: the MCP catalogue's Cache-Control
// and CORS), asked before byKindPath.
var servedKinds = func() []kit.Served {
	var out []kit.Served
	for _, k := range registry.All() {
		if s, ok := k.(kit.Served); ok {
			out = append(out, s)
		}
	}
	return out
}()

// Redirect is a redirect the server answers a path with.
type Redirect struct {
	From   string // a tree path, such as .well-known/change-password
	To     string // a path of the site or an absolute URL
	Status int    // 301, 302, 303, 307 or 308
}

// RedirectsFile is the file of redirects that goes beside _headers.
const RedirectsFile = "_redirects"

// checkRedirects returns the problems of rs for the tree t: a path that
// is also a file, a status that is not a redirect, a target a format
// could read otherwise than written.
func checkRedirects(t tree.Tree, rs []Redirect) []error {
	var errs []error
	seen := map[string]bool{}
	for _, r := range rs {
		if err := checkPath(Nginx, r.From); err != nil {
			errs = append(errs, err)
			continue
		}
		if _, ok := t[r.From]; ok {
			errs = append(errs, fmt.Errorf("%s: a redirect and a file of the tree at once", r.From))
		}
		if seen[r.From] {
			errs = append(errs, fmt.Errorf("%s: two redirects", r.From))
		}
		seen[r.From] = true
		switch r.Status {
		case 301, 302, 303, 307, 308:
		default:
			errs = append(errs, fmt.Errorf("%s: %d is not a redirect status", r.From, r.Status))
		}
		if msg := redirectTarget(r.To); msg != "" {
			errs = append(errs, fmt.Errorf("%s: redirect target %q %s", r.From, r.To, msg))
		}
	}
	return errs
}

// redirectTarget refuses a target that is not a path or an absolute
// http(s) URL, or that holds a character some format would read: white
// space and quotes end a value, "$" starts a variable in nginx and a
// back-reference in Apache, "{" a placeholder in Caddy.
func redirectTarget(to string) string {
	if !strings.HasPrefix(to, "/") && !strings.HasPrefix(to, "https://") && !strings.HasPrefix(to, "http://") || strings.HasPrefix(to, "//") {
		return "is neither a path nor an absolute http(s) URL"
	}
	for i := 0; i < len(to); i++ {
		c := to[i]
		if !isAlnum(c) && !strings.ContainsRune("-._~:/?#[]@!&()*+,;=%", rune(c)) {
			return fmt.Sprintf("holds %q, which a server configuration could read otherwise; percent-encode it", c)
		}
	}
	return ""
}

// renderRedirects writes the redirects of rs in kind k's configuration;
// _headers gets none (see netlifyRedirects).
func renderRedirects(b *strings.Builder, k Kind, rs []Redirect) {
	if len(rs) == 0 || k == Headers {
		return
	}
	b.WriteString("\n# Redirects (a well-known resource that is a redirect, not a file).\n")
	for _, r := range rs {
		switch k {
		case Nginx:
			fmt.Fprintf(b, "location = %s {\n    return %d %s;\n}\n", urlPath(r.From), r.Status, quoted(r.To))
		case Htaccess:
			// Without mod_alias the directive would make every request of
			// the directory fail; without the redirect, verify reports it.
			b.WriteString("<IfModule mod_alias.c>\n")
			fmt.Fprintf(b, "    RedirectMatch %d %s %s\n", r.Status, quoted("^"+regexpQuote(urlPath(r.From))+"$"), quoted(r.To))
			b.WriteString("</IfModule>\n")
		case Caddy:
			fmt.Fprintf(b, "redir %s %s %d\n", urlPath(r.From), quoted(r.To), r.Status)
		}
	}
}

// netlifyRedirects returns the _redirects file for rs: one line each,
// path, target and status.
func netlifyRedirects(rs []Redirect) []byte {
	var b strings.Builder
	b.WriteString("# Redirects for the resources discgen answers with a redirect, and a 404\n")
	b.WriteString("# for missing well-known paths (Netlify, Cloudflare Pages).\n")
	b.WriteString("# Generated by discgen; edits are overwritten by the next build.\n")
	for _, r := range rs {
		fmt.Fprintf(&b, "%s %s %d\n", escapedPath(r.From), r.To, r.Status)
	}
	b.WriteString("\n# A /.well-known/ path that is not a file answers 404 on Netlify (a file\n")
	b.WriteString("# shadows the rule); keep it before a catch-all such as /* /index.html 200.\n")
	b.WriteString("# Cloudflare Pages takes no 404 status and skips this line.\n")
	b.WriteString(netlifyWellKnownMissing)
	return []byte(b.String())
}

// regexpQuote writes the characters of a URL path that a PCRE reads
// specially as one-character classes ("[.]"): a backslash would need its
// own quoting in Apache's configuration.
func regexpQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`.+*?()|{}$`, r) {
			b.WriteString("[" + string(r) + "]")
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
