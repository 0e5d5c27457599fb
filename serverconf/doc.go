// Package serverconf renders web server configuration that makes a server
// send the right response headers for the files of a rendered tree: the
// media type, how long caches may keep the file, and two headers that matter
// for files read by programs in other origins.
//
// Four formats are supported ([Kind]):
//
//   - headers: a _headers file for Netlify and Cloudflare Pages, placed at
//     the root of the output tree;
//   - htaccess: an .htaccess file for Apache 2.4, placed at the root of the
//     output tree;
//   - nginx: nginx/discgen.conf, location blocks to include in the server
//     block that serves the output directory;
//   - caddy: caddy/discgen.caddy, matchers and header directives to import
//     in the Caddy site block that serves the output directory.
//
// [Render] returns the first two in the tree to merge into the output, the
// last two in a separate tree: server configuration does not belong in the
// public directory. Render takes a tree whose root is the root of the web
// site: the URL path of a file is "/" followed by its tree path.
//
// # Headers
//
// Every file gets these four headers:
//
//	file                              Content-Type               Cache-Control
//	robots.txt                        text/plain; charset=utf-8  max-age=86400
//	data.txt                          text/plain; charset=utf-8  max-age=604800
//	llms.txt                          text/markdown; charset=utf-8 max-age=86400
//	.well-known/api-catalog           application/linkset+json; profile=... max-age=86400
//	                                  (see ai.go, which also adds the Link header on /)
//	[dir/]autodisc/NAME.txt           text/plain; charset=utf-8  max-age=604800
//	.well-known/NAME.txt              text/plain; charset=utf-8  max-age=86400
//	.well-known/NAME.json             application/json           max-age=86400
//	.well-known/host-meta             application/xrd+xml        max-age=86400
//	.well-known/nodeinfo (and other
//	  JSON names, see below)          application/json           max-age=86400
//	.well-known/a/b (several
//	  segments, RFC 8615)             as above, by the whole name max-age=86400
//	the published RSL document
//	  (Rights.Document)               application/rsl+xml        max-age=86400
//	the policy page, a .html file
//	  outside autodisc/ and
//	  .well-known/ (policy_page)      text/html; charset=utf-8   max-age=86400
//	.well-known/mcp/catalog.json      application/json           public, max-age=3600
//	.well-known/mcp/servers/NAME.json,
//	  .well-known/mcp.json,
//	  .well-known/mcp/server-card.json application/mcp-server-card+json public, max-age=3600
//	                                  (kinds/mcp, kit.Served: also
//	                                  Access-Control-Allow-Methods: GET and
//	                                  Access-Control-Allow-Headers: Content-Type;
//	                                  nginx sends this Cache-Control as written,
//	                                  without expires and Expires)
//	.well-known/oauth-protected-resource,
//	  .well-known/oauth-authorization-server
//	                                  application/json           max-age=86400
//	                                  (kinds/oauthmeta, kit.Served: also
//	                                  Access-Control-Allow-Methods: GET and
//	                                  Access-Control-Allow-Headers: Content-Type,
//	                                  MCP-Protocol-Version)
//	any other file                    by extension, else
//	                                  application/octet-stream   max-age=86400
//
//	X-Content-Type-Options: nosniff      on every file
//	Access-Control-Allow-Origin: *       on every file
//
// A file with Access-Control-Allow-Methods (the MCP and OAuth files above)
// also answers a CORS preflight, OPTIONS at its path, with 204 and
// Access-Control-Allow-Origin, -Methods, -Headers and
// Access-Control-Max-Age: 86400 in nginx, Apache and Caddy; _headers
// sends the Max-Age with the file's headers but cannot set the status
// (preflight.go).
//
// The reasons, with their sources:
//
//   - text/plain; charset=utf-8 for robots.txt (RFC 9309 section 2.3: the
//     file is UTF-8 encoded text/plain), for the autodisc files (seed 000
//     section 4: they SHOULD be served as text/plain and MUST be UTF-8), for
//     data.txt (seed 001 section 3.1: a text/plain resource; both of its formats,
//     records and YAML, are UTF-8 text meant to be read as such, so YAML is
//     not given a YAML type) and for security.txt (RFC 9116 section 3: it
//     MUST be served as text/plain with charset=utf-8). Naming the charset
//     keeps browsers and proxies from guessing one.
//   - application/json for .json names and for the extensionless well-known
//     names whose specifications define JSON documents: nodeinfo (NodeInfo
//     protocol: a JSON resource descriptor), openid-configuration (OpenID
//     Connect Discovery 1.0 section 4), oauth-authorization-server (RFC 8414
//     section 3.2), apple-app-site-association (Apple's associated domains),
//     matrix/server and matrix/client (the Matrix specification's well-known
//     URIs). A name of several segments is looked up whole; an
//     acme-challenge/TOKEN or openpgpkey/hu/HASH file has no extension and
//     gets application/octet-stream, the type RFC 8555 section 8.3 shows and
//     the OpenPGP Web Key Directory draft asks for.
//     JSON has no charset parameter (RFC 8259 section 11).
//   - application/xrd+xml for host-meta (RFC 6415 section 2).
//   - text/html; charset=utf-8 for the page for the host's customers
//     (policy_page), a page for people, which a browser must show rather
//     than download; an .html file in an autodisc/ directory (a tenant's
//     x- file) or under .well-known/ keeps application/octet-stream, so that
//     no page a tenant writes runs in the site's origin.
//   - application/octet-stream for anything else without a known extension
//     (RFC 9110 section 8.3: the type a recipient assumes when none is
//     given), so every server sends the same type instead of each guessing.
//     The extension table (.txt, .json, .jrd, .xml, compared without regard
//     to case) is fixed in this package, not read from the host's
//     mime.types, so the output is the same on every machine.
//   - max-age=86400 for robots.txt: RFC 9309 section 2.4 says crawlers
//     SHOULD NOT use a cached robots.txt for more than 24 hours, so a longer
//     lifetime would not be honoured; 24 hours states that ceiling to every
//     cache on the way.
//   - max-age=604800 (7 days) for data.txt and the autodisc files: seed 001
//     section 3.4 gives 7 days as the expiry a reader assumes when the server
//     sends no cache directive. data.txt's draft is that text, and the
//     autodisc draft (seed 000) names no lifetime of its own, so the same
//     default is made explicit. Seed 003 asks for exactly that: an expiry the
//     publisher states instead of one the reader assumes.
//   - max-age=86400 for .well-known files and anything else: RFC 8615 sets
//     no lifetime; security.txt carries its own Expires field (RFC 9116
//     section 2.5.5), and a day keeps changed contacts or keys from being
//     served stale for long.
//   - X-Content-Type-Options: nosniff (Fetch standard, section on the
//     X-Content-Type-Options header) makes browsers use the type above
//     instead of sniffing one from the bytes, so a text file is never run as
//     script or rendered as HTML.
//   - Access-Control-Allow-Origin: * (Fetch standard, CORS protocol): these
//     are discovery files, meant to be read by anyone, including web pages
//     and tools on other origins. Every file of the tree is public by
//     construction and "*" never admits credentials, so the header exposes
//     nothing a plain HTTP client could not already fetch.
//
// # Expires
//
// Seed 001 section 3.4 has robots honour the Expires header (seven days when
// the server sends no cache directive), so where the server can compute it,
// each file also gets an Expires equal to the time of the response plus the
// Cache-Control lifetime: nginx's "expires" directive sends both headers
// from one value, and Apache's mod_expires ("ExpiresDefault access plus N
// seconds") does the same. An Expires is a date, so a fixed header value
// cannot carry it: the _headers format and Caddy's header directive send
// Cache-Control only. Caches give max-age precedence over Expires (RFC
// 9111 section 5.3), so the lifetime is the same either way.
//
// A symbolic link entry gets the headers of the file it points to: the bytes
// served are the target's. With the robots.txt link option,
// autodisc/robots.txt therefore gets robots.txt's one day; as a copy it is an
// autodisc file and gets seven.
//
// # Formats
//
// _headers: one rule per file, the URL path on its own line followed by
// indented "Name: value" lines, the syntax Netlify and Cloudflare Pages
// share. The path is written percent-encoded, as a browser sends it (the
// WHATWG URL path percent-encode set); Cloudflare Pages normalizes rule paths
// the same way, and Netlify documents no other form. Cloudflare Pages reads
// at most 100 rules, one per file here.
//
// .htaccess: one <If "%{REQUEST_URI} == '/path'"> section per file (Apache
// 2.4 expressions). <Files> and <FilesMatch> see only the base name, so
// they would also catch robots.txt in every subdirectory; <Location> is not
// allowed in .htaccess. REQUEST_URI is the decoded path, so it is written
// decoded, UTF-8 bytes and all. The media type is set with ForceType (core),
// the headers with mod_headers inside <IfModule mod_headers.c> and Expires
// with mod_expires inside <IfModule mod_expires.c>, so a server without a
// module still serves the files instead of failing every request.
// ForceType and Header need AllowOverride FileInfo, the mod_expires
// directives AllowOverride Indexes.
//
// nginx: one exact "location = /path" block per file. An empty "types { }"
// block drops the extension mapping inside the location, so "default_type"
// names the type, charset included; "expires" sends Cache-Control and
// Expires. add_header without "always": the headers
// belong to the file, not to an error page served in its place. nginx
// matches the decoded, normalized URI, so the path is written decoded. Note
// that add_header inside a location replaces every add_header inherited from
// the server block.
//
// Caddy: one named matcher per distinct set of headers (@discgen_1, ...),
// listing its paths, and a header directive for it. Caddy's file server keeps
// a Content-Type that is already set. The path matcher compares the decoded
// path case-insensitively, so the path is written decoded.
//
// # Usage preferences
//
// With Access.Usage, every kind also sends the Content-Usage header
// (draft-ietf-aipref-attach-05): the site's preferences, path-scoped values
// tried from the shortest path to the longest so that the longest match
// decides; usage.go says how each format does it.
//
// # Tenant directories
//
// With Access.Tenants, the delegations whose tenants a glob finds (ISP
// users' ~user directories), nginx, Apache and Caddy also get one rule per
// delegation for the autodisc files of every tenant, whatever the number
// of tenants: nginx a regular-expression location that serves them (an
// alias built from the glob), Apache apache/discgen-tenants.conf (the
// separate tree) with <LocationMatch> sections for mod_userdir, Caddy
// path_regexp header rules. tenants.go says what each matches and why.
// The headers the site sends on every response (X-Robots-Tag, Content-Usage,
// the licence's Link, the tdm headers) reach the tenants' responses in
// all three, path-scoped as on the site's own paths (tenants_sitewide.go).
//
// # Verified crawlers
//
// With Access.Verified, nginx, Apache and Caddy answer 403 to a request
// whose User-Agent claims a crawler (by a product, as RFC 9110 writes the
// field: useragent.go) from an address outside the ranges its operator
// publishes, /robots.txt excepted: nginx through geo and map
// blocks in nginx/discgen-verified.conf (the http block includes it) and
// one "if" in discgen.conf, Apache through apache/discgen-verified.conf
// (the VirtualHost includes it), Caddy through matchers in discgen.caddy.
// verified.go says what each writes and why; _headers cannot.
//
// # Throttled crawlers
//
// With Access.Throttle, nginx slows the crawlers of each class rather than
// refuse them: limit_req zones keyed by the name the User-Agent claims,
// in nginx/discgen-throttle.conf (the http block includes it), and
// limit_req with limit_req_status 429 in discgen.conf; browsers and
// /robots.txt have an empty key, which nginx does not count, and a
// refusal comes first. throttle.go says why; Apache, Caddy and _headers
// cannot (ThrottleCannot).
//
// # Missing well-known paths
//
// Every format also answers a /.well-known/ path that is not a file with
// 404, whatever the site's own configuration does with other missing
// paths (a single-page application's catch-all): nginx a "location ^~
// /.well-known/", Apache an <If> section of the .htaccess with mod_alias'
// Redirect 404, Caddy a handle block matched on the path as requested,
// _headers a line of the _redirects file beside it (Netlify; Cloudflare
// Pages skips it).
// wellknownmissing.go says how each is ordered against the site's rules.
//
// # Paths
//
// Paths are written as they are, without quoting, so Render accepts only
// characters that mean nothing special in any of the four formats: ASCII
// letters and digits, "-._~!&()+,=@", ":" (except in _headers, where ":name"
// is a placeholder), and printable non-ASCII characters. It refuses anything
// else, such as spaces, quotes, "%", "*", "#", "?", "$", ";", braces and
// invisible Unicode characters, with a [*PathError], rather than write a
// rule that matches something else or breaks the configuration.
package serverconf
