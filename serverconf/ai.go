package serverconf

import (
	"fmt"
	"strings"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/registry"
	"github.com/discgen/discgen/tree"
)

// Files for language models and API clients:
//
//	file                       Content-Type
//	llms.txt                   text/markdown; charset=utf-8
//	.well-known/api-catalog    application/linkset+json;
//	                             profile="https://www.rfc-editor.org/info/rfc9727"
//
// llms.txt is markdown (llmstxt.org); text/markdown is its registered type
// (RFC 7763), and RFC 7763 section 2 makes charset a required parameter.
// The api-catalog is a JSON linkset (RFC 9264: application/linkset+json)
// and RFC 9727 asks for its profile in the profile parameter, so a client
// can tell an api-catalog from any other linkset without reading it. Both
// keep the one-day lifetime of the other root files.
//
// The api-catalog's own response carries
//
//	Link: </.well-known/api-catalog>; rel="api-catalog"
//
// as RFC 9727 section 2 asks (for GET and HEAD alike), with the file's
// other headers in every format (FileLinks). When the tree holds an
// api-catalog, the site's home page "/" gets the same header, the link
// relation RFC 9727 registers, so that a client that fetches the home page
// (or only asks for its headers) finds the catalog. "/" is
// usually served from an index file through an internal redirect, which
// changes the path a rule sees; each format therefore matches the
// request as the client sent it:
//
//   - _headers: a rule for "/" (Netlify and Cloudflare Pages match the
//     request path, "/" only);
//   - .htaccess: a Header directive at the top level of the file with an
//     expr= condition on THE_REQUEST (the request line, which no internal
//     redirect changes);
//   - nginx: server-level "set" and "if" on $request_uri (likewise
//     unchanged by the index redirect) and a server-level add_header
//     whose value is empty, so not sent, for any other request. As with
//     every server-level add_header, a location of the site's own that has
//     add_header lines does not inherit it;
//   - Caddy: a header directive with the path matcher "/": matchers see
//     the request before file_server picks the index file.

// linkByPath maps the tree path of each kind of the registry that names
// itself in a Link header (kit.Linked: the api-catalog) to that value, in
// registry order.
var linkByPath, linkedPaths = func() (map[string]string, []string) {
	m := map[string]string{}
	var order []string
	for _, k := range registry.All() {
		if l, ok := k.(kit.Linked); ok {
			m[k.Path()] = l.Link()
			order = append(order, k.Path())
		}
	}
	return m, order
}()

// HomeLinks returns the Link header values every format here makes the
// server send on "/" for tree t (none when t has no file of a kit.Linked
// kind, such as the api-catalog), for tools that check what a server
// sends.
func HomeLinks(t tree.Tree) []string {
	var out []string
	for _, p := range linkedPaths {
		if _, ok := t[p]; ok {
			out = append(out, linkByPath[p])
		}
	}
	return out
}

// FileLinks returns the Link header values the response for tree path p
// carries in every format here: a kit.Linked kind's link to itself (the
// api-catalog's, which RFC 9727 section 2 asks of its own response, HEAD
// included); none for any other file.
func FileLinks(t tree.Tree, p string) []string {
	if _, ok := t[p]; ok {
		if l, ok := linkByPath[p]; ok {
			return []string{l}
		}
	}
	return nil
}

// profileOf returns the headers of the file at tree path p, served from
// target (p itself, or the target of its symbolic link).
func profileOf(p, target string) profile {
	pr := classify(target)
	if l, ok := linkByPath[p]; ok {
		pr.Link = l
	}
	return pr
}

// quoted writes s as a double-quoted string of nginx, Apache and Caddy
// configuration, where a backslash escapes '"' and '\' alike.
func quoted(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// homeLinks writes the Link header on "/" in format k.
func homeLinks(b *strings.Builder, k Kind, t tree.Tree) {
	links := HomeLinks(t)
	if len(links) == 0 {
		return
	}
	link := strings.Join(links, ", ")
	switch k {
	case Headers:
		fmt.Fprintf(b, "\n/\n  Link: %s\n", link)
	case Htaccess:
		b.WriteString("\n# The api-catalog link on the home page, as requested (THE_REQUEST is\n")
		b.WriteString("# the request line, which the redirect to an index file does not change).\n")
		b.WriteString("<IfModule mod_headers.c>\n")
		fmt.Fprintf(b, "    Header set Link %s \"expr=%%{THE_REQUEST} =~ m#^[A-Z]+ /(\\\\?[^ ]*)? #\"\n", quoted(link))
		b.WriteString("</IfModule>\n")
	case Nginx:
		b.WriteString("\n# Server level: the api-catalog link on the home page, as requested\n")
		b.WriteString("# ($request_uri, which the index redirect does not change).\n")
		b.WriteString("set $discgen_api_catalog \"\";\n")
		fmt.Fprintf(b, "if ($request_uri ~ \"^/(\\?|$)\") { set $discgen_api_catalog %s; }\n", quoted(link))
		b.WriteString("add_header Link $discgen_api_catalog;\n")
	case Caddy:
		fmt.Fprintf(b, "\nheader / Link %s\n", quoted(link))
	}
}
