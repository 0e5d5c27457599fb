package kit

import (
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
)

// Kind is one discovery file that discgen writes from a manifest key of
// its own: a package under kinds/ implements it, and kinds/registry lists
// it once. The stages loop over the registry and ask each kind what they
// need: validate calls Check, generate calls Render, serverconf reads
// MediaType. What only some kinds do is an interface of its own below,
// which a stage finds by type assertion.
type Kind interface {
	// Name is the file's name in messages and for lint --type: "ads.txt",
	// "gpc.json".
	Name() string
	// Key is the manifest path, from the site's root, of the value that
	// gives the file: "ads_txt", "well_known.gpc"; "well_known.files" for
	// a kind given as an entry there (the A2A agent card), whose Given is
	// then always false, so that the entry alone writes the file.
	Key() string
	// Path is the tree path the file is served at: "ads.txt",
	// ".well-known/gpc.json".
	Path() string
	// MediaType is the Content-Type the file is served with, "" for a
	// path that is a redirect rather than a file.
	MediaType() string
	// Given reports whether site gives the file.
	Given(site *manifest.Site) bool
	// Check returns the problems of the site's value, each Field relative
	// to Key; nil when the site does not give the file.
	Check(site *manifest.Site, b Build) []Finding
	// Render returns the file for a site whose value Check passed (no
	// error); ok is false when the site gives no file at Path.
	Render(site *manifest.Site, b Build) (data []byte, ok bool)
}

// Build is what a check or a rendering knows besides the manifest.
type Build struct {
	// Now is the time of the build: security.txt's Expires is resolved
	// and checked against it.
	Now time.Time
}

// Linter is a kind that checks a hand-written copy of its file (lint):
// each diagnostic with a line, a column and a code, but no file name.
type Linter interface {
	Lint(data []byte) []diag.Diagnostic
}

// ShapeChecker is a JSON kind that checks a copy of its file by shape,
// each problem at the offset of its value (so that a copy given inline in
// the manifest is reported at its place there).
type ShapeChecker interface {
	CheckShape(data []byte) []JSONProblem
}

// SiteShapeChecker is a ShapeChecker whose file names the site itself (an
// OAuth metadata document's resource or issuer, which must be the site's
// origin): a stage that knows the site checks a copy with CheckSiteShape
// instead of CheckShape.
type SiteShapeChecker interface {
	CheckSiteShape(site *manifest.Site, data []byte) []JSONProblem
}

// OriginNamer is a kind whose file names the site's own URL (an OAuth
// metadata document's issuer or resource, security.txt's Canonical):
// import takes its origin for site.url when nothing before it named one. SiteURL returns that URL, ok
// false when the file names none.
type OriginNamer interface {
	SiteURL(data []byte) (u string, ok bool)
}

// Importer is a kind that carries a copy of its file back into the
// manifest (import). Import sets the kind's value in site and reports
// whether it did; warn reports a part of the file left out or changed,
// at a 1-based line (0 for the whole file). A kind that can take only its
// own rendering back returns false for any other file, which import then
// keeps byte for byte.
type Importer interface {
	Import(site *manifest.Site, data []byte, warn func(line int, format string, args ...any)) bool
}

// Commented is an Importer whose file's comments import carries back
// too: Comments returns them, each without its comment mark, in the
// file's order, and import writes them above the kind's key.
type Commented interface {
	Comments(data []byte) []string
}

// Defaulted is an Importer whose imported value may hold what the build
// writes by default once the site's origin is known (security.txt's
// Canonical): import calls DropDefaults with the origin it chose for
// site.url ("https://example.org", no trailing slash) before it writes
// the manifest, and the kind leaves such a part of its value out.
type Defaulted interface {
	DropDefaults(site *manifest.Site, origin string)
}

// Redirector is a kind served as a redirect rather than a file: Redirect
// returns the target and the status for the site, ok false when the site
// gives none.
type Redirector interface {
	Redirect(site *manifest.Site) (to string, status int, ok bool)
}

// Sourced is a kind whose file is a file of the manifest's directory
// that discgen copies byte for byte once it passes the kind's
// ShapeChecker: Source returns its path relative to the manifest, ok
// false when the site gives none. Render returns no file for it.
type Sourced interface {
	Source(site *manifest.Site) (path string, ok bool)
}

// NoRedirect is a kind whose consumer fetches it without following a
// redirect: Consumer names that consumer ("iOS"), and verify fails a
// redirect there rather than following it.
type NoRedirect interface {
	Consumer() string
}

// CrossOrigin is a kind that scripts of other origins read (an MCP client
// running in a browser): CrossOriginReader names that reader, and verify
// fails a response without Access-Control-Allow-Origin: *, which every
// --server format sends.
type CrossOrigin interface {
	CrossOriginReader() string
}

// Linked is a kind whose file's own response names it in a Link header,
// and whose link the site's home page "/" carries too, so that a client
// that fetches the home page, or only its headers, finds the file (the
// api-catalog, RFC 9727 section 2): Link returns the header value, which
// every --server format sends on both and verify expects there.
type Linked interface {
	Link() string
}

// SchemaShipper is a kind that ships JSON Schemas of its own (the A2A
// agent card's): an entry of well_known.files may name one of Schemas in
// its schema, and an entry whose name DefaultSchema maps to one is
// checked against it without naming it.
type SchemaShipper interface {
	// Schemas lists the names an entry's schema may give, sorted.
	Schemas() []string
	// DefaultSchema returns the schema an entry named name (after
	// /.well-known/) is checked against when it names none, "" for none.
	DefaultSchema(name string) string
	// ResolveSchema returns the version of the schema name that the file
	// data is checked against (a card declares its version), without
	// compiling it: a name that changes when the schema does.
	ResolveSchema(name string, data []byte) string
	// ShippedSchema returns the compiled schema of a version
	// ResolveSchema gave, compiled the first time it is asked for, and
	// what it is ("A2A v1.0.1").
	ShippedSchema(version string) (s *Schema, about string, err error)
}

// EntryChecker is a kind with something to say about an entry of
// well_known.files by its name alone (the A2A agent card's name before
// A2A v0.3.0): CheckEntry returns its findings, each Field relative to
// the entry's name.
type EntryChecker interface {
	CheckEntry(name string) []Finding
}

// Signer is a kind whose rendered file the build may sign: Signing
// returns the manifest's block that names the key, nil for none, given at
// SignField below the kind's Key. validate checks the block (one of its
// key_env and key_file, the file inside the manifest's directory); the
// build reads the key and signs (generate/sign.go).
type Signer interface {
	Signing(site *manifest.Site) *manifest.Sign
}

// SignField is the field of a Signer's value that holds its sign block.
const SignField = "sign"

// CodeJSON is the lint code of a JSON file that fails its shape.
const CodeJSON = "J001"

// Dated is a ShapeChecker and Linter whose checks also judge the file's
// dates against the time of the build (--now): a key that has expired or
// soon will. generate and lint call CheckShapeAt and LintAt instead of
// CheckShape and Lint, which check everything else.
type Dated interface {
	CheckShapeAt(data []byte, now time.Time) []JSONProblem
	LintAt(data []byte, now time.Time) []diag.Diagnostic
}

// ExpiresSoon is how close to the time of the build an expiry draws a
// warning: security.txt's Expires, a published key's exp.
const ExpiresSoon = 30 * 24 * time.Hour

// TreeChecker is a kind whose file is checked against the other files
// the build publishes (the protected resource metadata against the
// authorization server metadata of the same site): once every file is in
// the tree, generate calls CheckInTree with the kind's own bytes and a
// reader of the tree's files by tree path, and puts each problem at its
// place in the kind's file.
type TreeChecker interface {
	CheckInTree(site *manifest.Site, data []byte, file func(path string) ([]byte, bool)) []JSONProblem
}

// Companion is a file a kind publishes besides its own: a source beside
// the manifest (Source, relative to it), named at manifest path Key,
// checked with Check (each problem at its line and column in the source)
// and copied byte for byte to each of Paths.
type Companion struct {
	Key    string
	Source string
	Paths  []string
	Check  func(data []byte) []JSONProblem
}

// Companions is a kind that publishes companions (the MCP catalogue's
// server cards): generate reads, checks and copies each for a site whose
// value Check passed.
type Companions interface {
	Companions(site *manifest.Site) []Companion
}

// Serving is how a file is served when its specification names more than
// a media type: the Cache-Control value ("public, max-age=3600") and the
// CORS headers besides Access-Control-Allow-Origin: *, which every file
// gets.
type Serving struct {
	MediaType    string
	CacheControl string
	AllowMethods string // Access-Control-Allow-Methods, "" for none
	AllowHeaders string // Access-Control-Allow-Headers, "" for none
}

// Served is a kind whose files (its own and its companions) are served
// as Serving says: ok is false for a tree path that is not one of them.
// serverconf asks it before the media type a kind declares. A file whose
// Serving names AllowMethods is one a script of another origin reads with
// a header of its own: every --server format that can set a status also
// answers its CORS preflight (OPTIONS) with 204 and those headers.
type Served interface {
	Serving(path string) (s Serving, ok bool)
}

// Owner is a kind whose manifest value is a type of its own package
// rather than a field of manifest's typed model: it reads the value with
// Value and import sets it with SetValue, at its Key. NewValue returns a
// pointer to a new zero value of the type; the schema's tests compare its
// JSON names with the schema's properties at Key, and import's YAML
// writer writes the value at Key by them.
type Owner interface {
	NewValue() any
}

// Value returns the site's value at key decoded into a V, once per site
// (manifest.KindValue); nil when the site gives none.
func Value[V any](site *manifest.Site, key string) *V {
	return manifest.KindValue[V](site, key)
}

// SetValue sets the site's value at key to v, nil for none: a kit.Importer
// carrying its file back.
func SetValue[V any](site *manifest.Site, key string, v *V) {
	manifest.SetKindValue(site, key, v)
}

// Text returns the site's string value at key, "" for none (Value).
func Text(site *manifest.Site, key string) string {
	if s := Value[string](site, key); s != nil {
		return *s
	}
	return ""
}

// Deployed is a problem of a deployed copy of a kind's file that neither
// its bytes nor its headers show. A problem only of the site itself (not
// served over https) has a StagingNote: verify of a staging URL gives
// that as a note instead.
type Deployed struct {
	Message     string
	StagingNote string
}

// DeployedChecker is a kind with checks of its deployed copy beyond the
// bytes the build wrote and the headers it is served with (security.txt:
// served over https, an Expires not passed): verify calls CheckDeployed
// with the scheme of the URL that answered at last, the body, and the
// time of the check (zero: no time to judge dates against).
type DeployedChecker interface {
	CheckDeployed(scheme string, body []byte, now time.Time) []Deployed
}
