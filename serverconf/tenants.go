package serverconf

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/discgen/discgen/pathspace"
)

// Tenant directories (a delegation's tenants glob, such as ISP users'
// ~user directories) are outside the site's tree, so the rules for the
// site's files do not reach them. For each such delegation, every kind but
// _headers writes one rule, whatever the number of tenants: every file in
// an autodisc directory of a tenant's space,
//
//	/~NAME/autodisc/FILE, /~NAME/DIR/.../autodisc/FILE
//
// for the delegation "~*", gets the headers of the site's autodisc files:
// the media type by extension (text/plain; charset=utf-8 for .txt, the
// table of headers.go for the others), max-age=604800 (with Expires where
// the server computes it), X-Content-Type-Options: nosniff and
// Access-Control-Allow-Origin: *. Each "*" of the space matches a name of
// one segment that is not empty and not made of dots only, so neither
// "/~/" nor "/~../" is a tenant.
//
// nginx: one regular-expression location that also serves the file, with
// an alias built from the tenants glob's directories (each "*" of the glob
// filled by the URL's capture in the same place), because a request is
// handled by one location only: included before the server's own userdir
// location, it takes the autodisc files and leaves every other file of the
// tenants to that location. Its types block and default_type give the
// media type by extension. The glob's wildcards must therefore be plain
// "*" in its directories: "?" and "[...]" cannot be filled from a URL.
//
// Apache: apache/discgen-tenants.conf, to Include in the server or virtual
// host configuration beside mod_userdir (an .htaccess in the site's root
// does not reach /home/NAME/public_html): a <LocationMatch> that sets the
// headers and ForceType application/octet-stream, then one per extension
// that sets its type (later sections win), then the site's own headers for
// every response in the space (tenants_sitewide.go).
//
// Caddy: a header directive with a path_regexp matcher, then one per
// extension, in the same order (Caddy keeps the order of path_regexp
// routes), placed before whatever serves the tenants' directories.
//
// _headers (Netlify, Cloudflare Pages) serves no user directories: no
// rule, and a warning.

// TenantSpace is one delegation whose tenants are found by a tenants glob.
type TenantSpace struct {
	// Space is the delegation's space in canonical form (pathspace), such
	// as "/~*/".
	Space string
	// Glob is the tenants glob, absolute and cleaned, such as
	// "/home/*/public_html/autodisc.yaml": each tenant's autodisc/
	// directory is beside its manifest.
	Glob string
}

// TenantsApacheFile is the Apache configuration for tenant directories,
// in the separate tree.
const TenantsApacheFile = "apache/discgen-tenants.conf"

// maxTenantStars bounds the wildcards of one tenant space: nginx names
// captures $1 to $9, and the file takes one.
const maxTenantStars = 8

// tenantName is what a "*" of a tenant space matches: one segment's worth,
// not empty and not only dots.
const tenantName = `[^/]*[^/.][^/]*`

// autodiscNames is what the rules match as the name of a tenant's
// autodisc file: the names seed 000 section 4 registers and x-NAME
// (validate's rule), so that no other file of a tenant, such as a script
// a userdir location would hand to its handler, is touched.
const (
	registeredNames = `(?:index|subdirectories|robots|icons|description|feeds)\x2etxt`
	xNames          = `x-[A-Za-z0-9][A-Za-z0-9._-]*`
)

// tenantRegexp returns the regular expression of the URL paths of the
// autodisc files in space, anchored at both ends: in PCRE (re2 false, for
// nginx and Apache) or Go's RE2 (Caddy). With capture, each "*" and the
// path below the space are captures. ext, when not empty, matches only
// the files whose extension, compared without regard to case, is ext.
func tenantRegexp(space string, re2, capture bool, ext string) (string, error) {
	var b strings.Builder
	if err := tenantSpaceRegexp(&b, space, re2, capture); err != nil {
		return "", err
	}
	names := registeredNames + "|" + xNames
	if ext != "" {
		names = xNames + "(?i:" + byteEscape(ext) + ")"
		if ext == ".txt" {
			names = registeredNames + "|" + names
		}
	}
	file := "(?:[^/]+/)*autodisc/(?:" + names + ")"
	if capture {
		file = "(" + file + ")"
	}
	b.WriteString(file + "$")
	return b.String(), nil
}

// tenantSpaceRegexp writes the start of tenantRegexp: the regular
// expression of the URL paths in space, from "^/" to the space's last "/".
func tenantSpaceRegexp(b *strings.Builder, space string, re2, capture bool) error {
	b.WriteString("^/")
	segs := strings.Split(strings.Trim(space, "/"), "/")
	for _, seg := range segs {
		for i, piece := range strings.Split(seg, "*") {
			if i > 0 {
				if capture {
					b.WriteString("(" + tenantName + ")")
				} else {
					b.WriteString("(?:" + tenantName + ")")
				}
			}
			if piece == "" {
				continue
			}
			re, ok := pathRegexp(strings.ReplaceAll(piece, "$", "%24"), re2)
			if !ok {
				return fmt.Errorf("its escapes do not decode to UTF-8, and Caddy matches characters")
			}
			b.WriteString(strings.TrimPrefix(re, "^"))
		}
		b.WriteByte('/')
	}
	return nil
}

// tenantAlias returns nginx's alias for the files of ts: the directory of
// its glob with each "*" replaced by the capture in the same place, then
// the capture of the path below the space.
func tenantAlias(ts TenantSpace) (string, error) {
	dir, base := path.Split(ts.Glob)
	dir = strings.TrimSuffix(dir, "/")
	switch {
	case !path.IsAbs(ts.Glob) || path.Clean(ts.Glob) != ts.Glob:
		return "", fmt.Errorf("not an absolute, clean path")
	case strings.ContainsAny(base, "*?["):
		return "", fmt.Errorf("a wildcard in the manifest's file name cannot be filled from a URL: put the wildcards in directories")
	case strings.ContainsAny(dir, "?["):
		return "", fmt.Errorf("\"?\" and \"[...]\" cannot be filled from a URL: use \"*\"")
	case strings.Count(dir, "*") != strings.Count(ts.Space, "*"):
		return "", fmt.Errorf("its directories hold %d '*' and the space %q %d: each '*' of the space fills one of the directories'", strings.Count(dir, "*"), ts.Space, strings.Count(ts.Space, "*"))
	}
	for _, r := range dir {
		ok := r == '*' || r == '/'
		if r < utf8.RuneSelf {
			ok = ok || isAlnum(byte(r)) || strings.ContainsRune(asciiSafe, r)
		} else {
			ok = unicode.IsGraphic(r) && !unicode.IsSpace(r)
		}
		if !ok {
			return "", fmt.Errorf("%q is not among the characters every format reads literally", r)
		}
	}
	var b strings.Builder
	n := 0
	for _, r := range dir {
		if r == '*' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	fmt.Fprintf(&b, "/$%d", n+1)
	return b.String(), nil
}

// checkTenants returns an error for each tenant space that kinds cannot
// write.
func checkTenants(kinds []Kind, spaces []TenantSpace) []error {
	var errs []error
	for _, k := range kinds {
		for _, ts := range spaces {
			bad := func(err error) {
				errs = append(errs, fmt.Errorf("%s: cannot write the rule for the tenants of %s (%s): %v", k, ts.Space, ts.Glob, err))
			}
			if sp, err := pathspace.Parse(pathspace.Root(), ts.Space); err != nil || sp.String() != ts.Space {
				bad(fmt.Errorf("not a delegation space in canonical form"))
				continue
			}
			if n := strings.Count(ts.Space, "*"); n > maxTenantStars {
				bad(fmt.Errorf("more than %d '*'", maxTenantStars))
				continue
			}
			switch k {
			case Nginx:
				if _, err := tenantAlias(ts); err != nil {
					bad(err)
				}
			case Caddy:
				if _, err := tenantRegexp(ts.Space, true, false, ""); err != nil {
					bad(err)
				}
			}
		}
	}
	return errs
}

// tenantExtensions lists byExtension's keys in a fixed order.
var tenantExtensions = []string{".jrd", ".json", ".txt", ".xml"}

// autodiscProfile is the profile of a tenant's autodisc file of media type
// ct.
func autodiscProfile(ct string) profile { return profile{ContentType: ct, CacheControl: sevenDay} }

func nginxTenants(b *strings.Builder, spaces []TenantSpace, noindex, usage bool, rights Rights) {
	for _, ts := range spaces {
		re, _ := tenantRegexp(ts.Space, false, true, "")
		alias, _ := tenantAlias(ts)
		p := autodiscProfile(octetStream)
		fmt.Fprintf(b, "\n# Tenants of %s (%s): the autodisc files of every tenant.\n", ts.Space, ts.Glob)
		b.WriteString("# Serves them itself: keep this include before your userdir location.\n")
		fmt.Fprintf(b, "location ~ \"%s\" {\n", re)
		fmt.Fprintf(b, "    alias %s;\n", quoted(alias))
		b.WriteString("    types {\n")
		for _, ext := range tenantExtensions {
			fmt.Fprintf(b, "        %s %s;\n", quoted(byExtension[ext]), ext[1:])
		}
		b.WriteString("    }\n")
		fmt.Fprintf(b, "    default_type %s;\n", quoted(octetStream))
		fmt.Fprintf(b, "    expires %ss;\n", p.maxAge())
		for _, h := range p.fields()[2:] {
			fmt.Fprintf(b, "    add_header %s \"%s\";\n", h[0], h[1])
		}
		nginxServerHeaders(b, noindex, usage)
		nginxRightsHeaders(b, rights, "    ")
		b.WriteString("}\n")
	}
}

// apacheTenants returns apache/discgen-tenants.conf for a's tenant
// spaces.
func apacheTenants(a Access) []byte {
	spaces := a.Tenants
	var b strings.Builder
	b.WriteString("# Response headers for the autodisc files of tenant directories (Apache 2.4).\n")
	b.WriteString("# Include in the server or virtual host configuration that serves them\n")
	b.WriteString("# (mod_userdir: UserDir public_html), after the UserDir line:\n")
	b.WriteString("#     Include /path/to/apache/discgen-tenants.conf\n")
	b.WriteString("# The headers need mod_headers, Expires (with a matching Cache-Control)\n")
	b.WriteString("# needs mod_expires. Generated by discgen; edits are overwritten.\n")
	for _, ts := range spaces {
		re, _ := tenantRegexp(ts.Space, false, false, "")
		p := autodiscProfile(octetStream)
		fmt.Fprintf(&b, "\n# Tenants of %s\n", ts.Space)
		fmt.Fprintf(&b, "<LocationMatch \"%s\">\n", re)
		fmt.Fprintf(&b, "    ForceType %s\n", quoted(p.ContentType))
		b.WriteString("    <IfModule mod_expires.c>\n")
		b.WriteString("        ExpiresActive On\n")
		fmt.Fprintf(&b, "        ExpiresDefault \"access plus %s seconds\"\n", p.maxAge())
		b.WriteString("    </IfModule>\n")
		b.WriteString("    <IfModule mod_headers.c>\n")
		for _, h := range p.fields()[1:] {
			fmt.Fprintf(&b, "        Header set %s \"%s\"\n", h[0], h[1])
		}
		b.WriteString("    </IfModule>\n")
		b.WriteString("</LocationMatch>\n")
		for _, ext := range tenantExtensions {
			re, _ := tenantRegexp(ts.Space, false, false, ext)
			fmt.Fprintf(&b, "<LocationMatch \"%s\">\n    ForceType %s\n</LocationMatch>\n", re, quoted(byExtension[ext]))
		}
		apacheTenantsSiteWide(&b, ts, a)
	}
	return []byte(b.String())
}

func caddyTenants(b *strings.Builder, spaces []TenantSpace) {
	for i, ts := range spaces {
		re, _ := tenantRegexp(ts.Space, true, false, "")
		p := autodiscProfile(octetStream)
		name := fmt.Sprintf("@discgen_tenants_%d", i+1)
		fmt.Fprintf(b, "\n# Tenants of %s: the autodisc files of every tenant.\n", ts.Space)
		fmt.Fprintf(b, "%s path_regexp `%s`\n", name, re)
		fmt.Fprintf(b, "header %s {\n", name)
		for _, h := range p.fields() {
			fmt.Fprintf(b, "\t%s %s\n", h[0], quoted(h[1]))
		}
		b.WriteString("}\n")
		for _, ext := range tenantExtensions {
			re, _ := tenantRegexp(ts.Space, true, false, ext)
			n := name + "_" + ext[1:]
			fmt.Fprintf(b, "%s path_regexp `%s`\n", n, re)
			fmt.Fprintf(b, "header %s Content-Type %s\n", n, quoted(byExtension[ext]))
		}
	}
}

// tenantWarnings says what kinds cannot write of the tenant spaces.
func tenantWarnings(kinds []Kind, spaces []TenantSpace) []string {
	if len(spaces) == 0 {
		return nil
	}
	for _, k := range kinds {
		if k == Headers {
			return []string{"_headers has no rules for tenant directories (Netlify and Cloudflare Pages serve no user directories): their files get the host's default headers"}
		}
	}
	return nil
}
