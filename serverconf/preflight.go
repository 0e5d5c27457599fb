package serverconf

import (
	"fmt"
	"slices"
	"strings"
)

// CORS preflights. A script of another origin that reads a file with a
// header of its own (a browser-based MCP client sends MCP-Protocol-Version
// with its discovery requests) first sends OPTIONS with
// Access-Control-Request-Method and -Headers, and reads the file only
// when the answer is a 2xx with the CORS headers that allow the request.
// The files a kind serves with Access-Control-Allow-Methods (kit.Served:
// the MCP catalogue and cards, the OAuth metadata documents) answer
// OPTIONS at their exact path with 204, no body, and
// Access-Control-Allow-Origin: *, the kind's Access-Control-Allow-Methods
// and -Headers, and Access-Control-Max-Age: 86400 (a day, which Firefox
// honours in full; Chromium caches a preflight 2 hours at most). Without
// it nginx answers OPTIONS at a static file with 405, Apache and Caddy
// with 200 and no CORS headers, and the browser does not send the GET.
//
//   - nginx: in the file's exact location, an if ($request_method =
//     OPTIONS) block (one of the uses of if the nginx documentation calls
//     safe: it only returns) with its own add_header lines, as those of
//     the location do not apply inside it, and return 204.
//   - Apache: an <If> section per file on the method and the path as
//     requested, with "Header always set" (a 204 that mod_alias answers
//     carries only the headers set "always") and mod_alias' "Redirect 204",
//     which answers in the fixup phase, before the default handler would
//     answer OPTIONS with 200 and an Allow header. Not mod_rewrite, for the
//     reason the missing well-known paths give (wellknownmissing.go).
//   - Caddy: a named matcher on method OPTIONS and the paths, and a handle
//     block that sets the headers and responds 204, written before the
//     block for missing well-known paths (both handle blocks with named
//     matchers, which Caddy keeps in written order).
//   - _headers: Netlify and Cloudflare Pages take no method and set no
//     status from it; the file's rule carries Access-Control-Max-Age with
//     its CORS headers, which the platform sends on whatever it answers
//     OPTIONS with (Cloudflare Pages and Netlify answer it themselves;
//     discgen cannot make it a 204 there, and verify checks the status).
const preflightMaxAge = "86400"

// preflight reports whether the profile's file answers a CORS preflight.
func (p profile) preflight() bool { return p.AllowMethods != "" }

// preflightFields are the headers of a preflight's answer.
func (p profile) preflightFields() [][2]string {
	f := [][2]string{
		{"Access-Control-Allow-Origin", anyOrigin},
		{"Access-Control-Allow-Methods", p.AllowMethods},
	}
	if p.AllowHeaders != "" {
		f = append(f, [2]string{"Access-Control-Allow-Headers", p.AllowHeaders})
	}
	return append(f, [2]string{"Access-Control-Max-Age", preflightMaxAge})
}

// nginxPreflight writes the preflight's if block inside f's location.
func nginxPreflight(b *strings.Builder, f file) {
	if !f.preflight() {
		return
	}
	b.WriteString("    if ($request_method = OPTIONS) {\n")
	for _, h := range f.preflightFields() {
		fmt.Fprintf(b, "        add_header %s %s;\n", h[0], quoted(h[1]))
	}
	b.WriteString("        return 204;\n    }\n")
}

// htaccessPreflight writes an <If> section per file that answers a
// preflight.
func htaccessPreflight(b *strings.Builder, files []file) {
	first := true
	for _, f := range files {
		if !f.preflight() {
			continue
		}
		if first {
			b.WriteString("\n# A CORS preflight (OPTIONS) at a file scripts of other origins read\n")
			b.WriteString("# answers 204 with the CORS headers (mod_headers, mod_alias).\n")
			first = false
		}
		fmt.Fprintf(b, "<If \"%%{REQUEST_METHOD} == 'OPTIONS' && %%{REQUEST_URI} == '%s'\">\n", urlPath(f.path))
		b.WriteString("    <IfModule mod_headers.c>\n")
		for _, h := range f.preflightFields() {
			fmt.Fprintf(b, "        Header always set %s %s\n", h[0], quoted(h[1]))
		}
		b.WriteString("    </IfModule>\n")
		b.WriteString("    <IfModule mod_alias.c>\n        Redirect 204\n    </IfModule>\n")
		b.WriteString("</If>\n")
	}
}

// caddyPreflight writes a matcher and a handle block per distinct set of
// preflight headers, numbered in the order they first occur in path
// order.
func caddyPreflight(b *strings.Builder, files []file) {
	type cors struct{ methods, headers string }
	var order []cors
	paths := map[cors][]string{}
	fields := map[cors][][2]string{}
	for _, f := range files {
		if !f.preflight() {
			continue
		}
		c := cors{f.AllowMethods, f.AllowHeaders}
		if !slices.Contains(order, c) {
			order = append(order, c)
			fields[c] = f.preflightFields()
		}
		paths[c] = append(paths[c], urlPath(f.path))
	}
	if len(order) == 0 {
		return
	}
	b.WriteString("\n# A CORS preflight (OPTIONS) at a file scripts of other origins read\n")
	b.WriteString("# answers 204 with the CORS headers.\n")
	for i, c := range order {
		name := fmt.Sprintf("@discgen_preflight_%d", i+1)
		fmt.Fprintf(b, "%s {\n\tmethod OPTIONS\n", name)
		for _, u := range paths[c] {
			fmt.Fprintf(b, "\tpath %s\n", u)
		}
		b.WriteString("}\n")
		fmt.Fprintf(b, "handle %s {\n\theader {\n", name)
		for _, h := range fields[c] {
			fmt.Fprintf(b, "\t\t%s %s\n", h[0], quoted(h[1]))
		}
		b.WriteString("\t}\n\trespond 204\n}\n")
	}
}
