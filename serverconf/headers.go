package serverconf

import (
	"fmt"
	"path"
	"strings"

	"github.com/discgen/discgen/tree"
)

// Header values shared by every file; see the package documentation.
const (
	textPlain   = "text/plain; charset=utf-8"
	appJSON     = "application/json"
	octetStream = "application/octet-stream"
	textHTML    = "text/html; charset=utf-8"

	nosniff   = "nosniff"
	anyOrigin = "*"

	oneDay   = "max-age=86400"
	sevenDay = "max-age=604800"
)

// byExtension maps a lower-case file name extension to its media type. It is
// fixed here rather than read from the host's mime.types so that every
// machine renders the same configuration.
var byExtension = map[string]string{
	".txt":  textPlain,
	".json": appJSON,
	".jrd":  "application/jrd+json",
	".xml":  "application/xml",
}

// byWellKnownName maps extensionless well-known names, the whole path
// after .well-known/, to the media type their specifications define; a
// kind of the registry declares its own (byKindPath, wellknownfiles.go).
var byWellKnownName = map[string]string{
	"host-meta":                  "application/xrd+xml", // RFC 6415 section 2
	"matrix/client":              appJSON,               // Matrix spec, client-server API: well-known URI
	"matrix/server":              appJSON,               // Matrix spec, server-server API: resolving server names
	"nodeinfo":                   appJSON,               // NodeInfo protocol
	"oauth-authorization-server": appJSON,               // RFC 8414 section 3.2
	"openid-configuration":       appJSON,               // OpenID Connect Discovery 1.0 section 4
}

// profile is the set of headers one file gets.
type profile struct {
	ContentType  string
	CacheControl string
	// Link is a Link header value the file's own response carries: the
	// api-catalog's link to itself (ai.go), "" for none.
	Link string
	// AllowMethods and AllowHeaders are the CORS headers a kind's
	// specification names besides Access-Control-Allow-Origin (kit.Served:
	// the MCP catalogue and cards), "" for none.
	AllowMethods, AllowHeaders string
}

// maxAge returns the seconds of the profile's Cache-Control max-age, from
// which nginx and Apache compute a matching Expires.
func (p profile) maxAge() string {
	_, after, _ := strings.Cut(p.CacheControl, "max-age=")
	n, _, _ := strings.Cut(after, ",")
	return n
}

// onlyMaxAge reports whether Cache-Control is max-age alone, which nginx's
// expires sends; another directive (public) is sent as written instead.
func (p profile) onlyMaxAge() bool { return p.CacheControl == "max-age="+p.maxAge() }

// fields returns the profile as header name and value pairs, in the order
// every format writes them.
func (p profile) fields() [][2]string {
	f := [][2]string{
		{"Content-Type", p.ContentType},
		{"Cache-Control", p.CacheControl},
		{"X-Content-Type-Options", nosniff},
		{"Access-Control-Allow-Origin", anyOrigin},
	}
	if p.AllowMethods != "" {
		f = append(f, [2]string{"Access-Control-Allow-Methods", p.AllowMethods})
	}
	if p.AllowHeaders != "" {
		f = append(f, [2]string{"Access-Control-Allow-Headers", p.AllowHeaders})
	}
	if p.Link != "" {
		f = append(f, [2]string{"Link", p.Link})
	}
	return f
}

// classify returns the headers of the file served at tree path p.
func classify(p string) profile {
	dir, name := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	for _, k := range servedKinds {
		if s, ok := k.Serving(p); ok {
			return profile{ContentType: s.MediaType, CacheControl: s.CacheControl, AllowMethods: s.AllowMethods, AllowHeaders: s.AllowHeaders}
		}
	}
	if ct, ok := byKindPath[p]; ok {
		return profile{ContentType: ct, CacheControl: oneDay}
	}
	ext := strings.ToLower(path.Ext(name))
	ct, ok := byExtension[ext]
	if ext == ".html" && !strings.HasPrefix(p, ".well-known/") && dir != "autodisc" && !strings.HasSuffix(dir, "/autodisc") {
		// The site's own page (policy_page): a page for people to read.
		// Elsewhere an .html file is not one discgen writes as a page
		// (a tenant's x- file), and no browser renders octet-stream.
		ct, ok = textHTML, true
	}
	if !ok {
		ct = octetStream
		if rest, ok := strings.CutPrefix(p, ".well-known/"); ok {
			if t, ok := byWellKnownName[rest]; ok {
				ct = t
			}
		}
	}
	switch {
	case p == "robots.txt":
		return profile{ContentType: textPlain, CacheControl: oneDay}
	case p == "data.txt":
		return profile{ContentType: textPlain, CacheControl: sevenDay}
	case dir == "autodisc" || strings.HasSuffix(dir, "/autodisc"):
		return profile{ContentType: ct, CacheControl: sevenDay}
	}
	return profile{ContentType: ct, CacheControl: oneDay}
}

// maxLinks bounds how many symbolic links resolve follows for one entry.
const maxLinks = 40

// resolve returns the tree path whose headers the entry at p gets: p itself
// for a regular file, the final target for a symbolic link. A target need
// not be in t, but it must stay inside the tree's root.
func resolve(t tree.Tree, p string) (string, error) {
	cur := p
	for range maxLinks {
		e, ok := t[cur]
		if !ok || e.Link == "" {
			return cur, nil
		}
		if strings.HasPrefix(e.Link, "/") {
			return "", fmt.Errorf("%s: symbolic link target %q is absolute", p, e.Link)
		}
		next := path.Join(path.Dir(cur), e.Link)
		if next == "." || next == ".." || strings.HasPrefix(next, "../") {
			return "", fmt.Errorf("%s: symbolic link target %q leaves the tree", p, e.Link)
		}
		cur = next
	}
	return "", fmt.Errorf("%s: more than %d symbolic links in a row", p, maxLinks)
}
