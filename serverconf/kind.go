package serverconf

import (
	"fmt"
	"strings"
)

// Kind names one server configuration format.
type Kind string

// The formats Render writes.
const (
	// Headers is a _headers file (Netlify, Cloudflare Pages) at the root of
	// the output tree.
	Headers Kind = "headers"
	// Htaccess is an .htaccess file (Apache 2.4) at the root of the output
	// tree.
	Htaccess Kind = "htaccess"
	// Nginx is nginx/discgen.conf, to include in an nginx server block.
	Nginx Kind = "nginx"
	// Caddy is caddy/discgen.caddy, to import in a Caddy site block.
	Caddy Kind = "caddy"
)

// Kinds returns every Kind in the order Render documents them. The list is
// the caller's to change.
func Kinds() []Kind { return []Kind{Headers, Htaccess, Nginx, Caddy} }

// File names of the rendered configuration, relative to the tree Render
// returns them in: HeadersFile and HtaccessFile in the public tree,
// NginxFile and CaddyFile in the separate one.
const (
	HeadersFile  = "_headers"
	HtaccessFile = ".htaccess"
	NginxFile    = "nginx/discgen.conf"
	CaddyFile    = "caddy/discgen.caddy"
)

// File returns the tree path k renders to, and whether that path belongs in
// the public output tree. It returns "" for an unknown kind.
func (k Kind) File() (path string, public bool) {
	switch k {
	case Headers:
		return HeadersFile, true
	case Htaccess:
		return HtaccessFile, true
	case Nginx:
		return NginxFile, false
	case Caddy:
		return CaddyFile, false
	}
	return "", false
}

// ParseKinds parses a comma-separated list of kinds, such as the value of a
// --server flag: "nginx,headers". Spaces around a name are ignored, a name
// listed twice counts once, and the result keeps the order of first mention.
// An empty string gives no kinds. An unknown or empty name is an error that
// lists the valid names.
func ParseKinds(s string) ([]Kind, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var kinds []Kind
	for name := range strings.SplitSeq(s, ",") {
		name = strings.TrimSpace(name)
		k := Kind(name)
		if p, _ := k.File(); p == "" {
			if name == "" {
				return nil, fmt.Errorf("empty server configuration name in %q; valid names: %s", s, validNames())
			}
			return nil, fmt.Errorf("unknown server configuration %q; valid names: %s", name, validNames())
		}
		dup := false
		for _, seen := range kinds {
			dup = dup || seen == k
		}
		if !dup {
			kinds = append(kinds, k)
		}
	}
	return kinds, nil
}

func validNames() string {
	kinds := Kinds()
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}
