package serverconf

import (
	"fmt"
	"strings"
)

// Missing well-known paths. A /.well-known/ path that is not a file
// answers 404 in every format, whatever the site's own configuration does
// with other missing paths: a single-page application's catch-all
// (nginx's try_files $uri /index.html, Apache's FallbackResource or a
// rewrite to index.html, Caddy's try_files {path} /index.html) would
// otherwise answer 200 with an HTML page, which agents and scanners read
// as a broken well-known file. A file of the site's
// directory under /.well-known/ that discgen did not write, such as an
// ACME challenge, is still served; the files and redirects discgen
// writes keep their own rules.
//
//   - nginx: a "location ^~ /.well-known/" that serves the file or sends
//     404 from a named location with "return 404 text", which no
//     error_page of the server's (such as error_page 404 =200
//     /index.html) turns into the application's page. nginx takes an
//     exact "location =" before any prefix, so discgen's locations for
//     its files (headers, media types) and redirects still answer their
//     paths; a longer prefix location of the site's (such as
//     /.well-known/acme-challenge/) takes its paths too; "^~" keeps the
//     site's regular-expression locations from this prefix.
//   - Apache: an <If> section of the .htaccess, for a path under
//     /.well-known/ that is not one of discgen's redirects and whose
//     file is missing or not under a .well-known directory (a rewrite of
//     the server configuration, which runs before any .htaccess, has
//     then mapped it to another file, index.html), with mod_alias'
//     "Redirect 404". mod_alias answers in the fixup phase, before
//     mod_dir's FallbackResource serves its page, and after a rewrite
//     of a <Directory> section, whose internal redirect to index.html
//     it cuts short. Not mod_rewrite: rewrite rules in an .htaccess
//     answer every request of the directory with 403 where Options has
//     neither FollowSymLinks nor SymLinksIfOwnerMatch.
//   - Caddy: a handle block, matched on the path as requested
//     ({http.request.orig_uri.path}, decoded, which no rewrite such as
//     try_files changes), that serves the path from the site's root with
//     file_server, a 404 where there is no file. Caddy tries a handle
//     without a matcher (the usual catch-all) after it, and keeps the
//     written order between it and a site's handle with a path, so a
//     well-known resource the site answers itself (handle
//     /.well-known/webfinger) is written before the import; redir (the
//     change-password redirect) runs before any handle. The block
//     stands aside when the site sets no root outside its handle
//     blocks: it could not tell a missing file there.
//   - _headers: Netlify reads the rule "/.well-known/* /404.html 404" from
//     _redirects, written beside _headers after discgen's redirects (a
//     file at the path shadows a rule, so the files are served).
//     Cloudflare Pages reads the same file but takes no 404 status (200
//     and redirects only): it skips the line, and a missing path there
//     answers as Pages answers any (the nearest 404.html, or index.html
//     when there is no top-level 404.html), which the file's comment
//     and the documentation say; the build does not warn, as it warns
//     of nothing that every build of the format would show.
const wellKnownPrefix = "/.well-known/"

// wellKnownMissing writes the 404 for missing well-known paths in format
// k; rs are discgen's redirects, which keep answering.
func wellKnownMissing(b *strings.Builder, k Kind, rs []Redirect) {
	switch k {
	case Nginx:
		b.WriteString("\n# A /.well-known/ path that is not a file answers 404, whatever your\n")
		b.WriteString("# locations do with other paths (a try_files ... /index.html, an\n")
		b.WriteString("# error_page). The exact locations above take their paths first, and\n")
		b.WriteString("# so does a longer prefix location of yours (/.well-known/acme-challenge/).\n")
		b.WriteString("location ^~ /.well-known/ {\n    try_files $uri @discgen_missing;\n}\n")
		b.WriteString("location @discgen_missing {\n    types { }\n")
		fmt.Fprintf(b, "    default_type %s;\n", quoted(textPlain))
		b.WriteString("    return 404 \"Not Found\\n\";\n}\n")
	case Htaccess:
		// An <If> expression and mod_alias, not mod_rewrite: rewrite
		// rules in an .htaccess refuse every request of the directory
		// (403) where Options has neither FollowSymLinks nor
		// SymLinksIfOwnerMatch.
		b.WriteString("\n# A /.well-known/ path that is not a file answers 404, before a\n")
		b.WriteString("# FallbackResource or a rewrite to index.html of the server configuration\n")
		b.WriteString("# (which maps the path to another file): mod_alias.\n")
		fmt.Fprintf(b, "<If \"%%{REQUEST_URI} =~ m#^%s#", regexpQuote(wellKnownPrefix))
		for _, r := range rs {
			fmt.Fprintf(b, " && %%{REQUEST_URI} != '%s'", urlPath(r.From))
		}
		fmt.Fprintf(b, " && (! -f %%{REQUEST_FILENAME} || %%{REQUEST_FILENAME} !~ m#%s#)\">\n", regexpQuote(wellKnownPrefix))
		b.WriteString("    <IfModule mod_alias.c>\n        Redirect 404\n    </IfModule>\n</If>\n")
	case Caddy:
		b.WriteString("\n# A /.well-known/ path that is not a file answers 404, whatever the site\n")
		b.WriteString("# does with other paths: matched on the path as requested, before a rewrite\n")
		b.WriteString("# such as try_files {path} /index.html, and served from the site's root\n")
		b.WriteString("# (set root outside your handle blocks, or this block stands aside).\n")
		fmt.Fprintf(b, "@discgen_well_known expression `{http.request.orig_uri.path}.matches(r\"^%s\") && {http.vars.root} != null && {http.vars.root} != \"\"`\n", strings.ReplaceAll(wellKnownPrefix, ".", `\.`))
		b.WriteString("handle @discgen_well_known {\n\trewrite * {http.request.orig_uri}\n\tfile_server\n}\n")
	}
}

// netlifyWellKnownMissing is the _redirects line for missing well-known
// paths, after discgen's redirects (Netlify takes the first rule that
// matches).
const netlifyWellKnownMissing = "/.well-known/* /404.html 404\n"
