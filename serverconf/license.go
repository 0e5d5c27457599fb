package serverconf

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/rsl"
	"github.com/discgen/discgen/tdmrep"
)

// Rights is the site's licence and TDMRep reservation, sent as headers on
// every response the configuration covers:
//
//   - Link: <License>; rel="license"; type="application/rsl+xml" (RSL 1.0,
//     rslstandard.org: the header form of robots.txt's License line), on
//     every path;
//   - tdm-reservation and tdm-policy (W3C TDMRep, CG final report
//     2024-05-10, "TDM Header Field in HTTP Responses"), path-scoped
//     exactly as /.well-known/tdmrep.json is: each response gets the values
//     of the first rule of TDM (in the file's order, longest location
//     first) whose location matches its path, and none where no rule
//     matches, nor at a target the servers do not read as TDMRep readers
//     do (requestform.go). A header and the file never disagree.
//
// nginx sets two variables at server level, from the shortest location to
// the longest, each match replacing both (an empty value sends no header),
// and sends them with add_header at server level and in each of discgen's
// locations, as Content-Usage is sent (usage.go). Apache sets and unsets
// the headers in <If> sections in the same order. Caddy gives each rule a
// named matcher that holds its location and no longer one before it in
// the file ("not path_regexp"), so that no two rules' headers meet and
// nothing needs unsetting. _headers joins the values of every rule that
// matches, and cannot unset: a rule whose location may share a URL with
// another rule's, or that _headers cannot match ("*" inside, ":"), is left
// out there with a warning (RightsWarnings); readers then take that
// reservation from tdmrep.json, since a missing header resets nothing.
type Rights struct {
	// License is the RSL document's absolute URL; "" for none.
	License string
	// TDM is the rules of tdmrep.json, in its order (tdmrep.Sort).
	TDM []tdmrep.Rule
	// Document is the tree path where the RSL document is published
	// (license.source), "" for none: served as application/rsl+xml
	// (license_document.go).
	Document string
}

// LicenseLink is the Link header value for an RSL document's URL.
func LicenseLink(u string) string {
	return "<" + u + ">; rel=\"license\"; type=\"" + rsl.MediaType + "\""
}

// tdmShortestFirst returns the rules from the shortest location to the
// longest: the order in which each match replaces the last.
func tdmShortestFirst(rules []tdmrep.Rule) []tdmrep.Rule {
	out := slices.Clone(rules)
	slices.Reverse(out)
	return out
}

func nginxRights(b *strings.Builder, r Rights) {
	if r.License == "" && len(r.TDM) == 0 {
		return
	}
	if len(r.TDM) > 0 {
		b.WriteString("\n# Server level: the tdm-reservation and tdm-policy headers (W3C TDMRep),\n")
		b.WriteString("# as /.well-known/tdmrep.json says, the longest matching location last.\n")
		b.WriteString("set $discgen_tdm_reservation \"\";\n")
		b.WriteString("set $discgen_tdm_policy \"\";\n")
		for _, t := range tdmShortestFirst(r.TDM) {
			if ReservedEscape(robots.Canonical(t.Location)) != "" {
				continue // requestform.go
			}
			fmt.Fprintf(b, "if (%s) { set $discgen_tdm_reservation \"%d\"; set $discgen_tdm_policy %s; } # %s\n", nginxRaw(robots.Canonical(t.Location)), t.Reservation, quoted(t.Policy), t.Location)
		}
		if scoped, query := guarded(tdmLocations(r.TDM)); scoped {
			fmt.Fprintf(b, "if ($request_uri ~ \"%s\") { set $discgen_tdm_reservation \"\"; set $discgen_tdm_policy \"\"; } # %s\n", rawGuard(query), guardNote)
		}
	}
	if r.License != "" {
		b.WriteString("\n# Server level: the RSL licence (Link rel=\"license\") on every response.\n")
	}
	nginxRightsHeaders(b, r, "")
}

// nginxRightsHeaders writes the add_header lines of r, at server level or
// (indent "    ") repeated in a location, whose own add_header lines
// replace the server's.
func nginxRightsHeaders(b *strings.Builder, r Rights, indent string) {
	if r.License != "" {
		fmt.Fprintf(b, "%sadd_header Link %s;\n", indent, quoted(LicenseLink(r.License)))
	}
	if len(r.TDM) > 0 {
		fmt.Fprintf(b, "%sadd_header tdm-reservation $discgen_tdm_reservation;\n", indent)
		fmt.Fprintf(b, "%sadd_header tdm-policy $discgen_tdm_policy;\n", indent)
	}
}

func htaccessRights(b *strings.Builder, r Rights) { htaccessRightsIn(b, r, "") }

// htaccessRightsIn is htaccessRights for the paths that scope, a regular
// expression on the decoded path, also matches ("" every path).
func htaccessRightsIn(b *strings.Builder, r Rights, scope string) {
	if r.License != "" {
		b.WriteString("\n# The RSL licence (Link rel=\"license\") on every response (needs mod_headers).\n")
		// The "always" table, which the api-catalog's Link (set in the
		// other table) does not replace.
		apacheHeaders(b, []string{scope}, "Header always set Link "+quoted(apacheValue(LicenseLink(r.License))))
	}
	if len(r.TDM) == 0 {
		return
	}
	b.WriteString("\n# The tdm-reservation and tdm-policy headers (W3C TDMRep), as\n")
	b.WriteString("# /.well-known/tdmrep.json says, the longest matching location last\n")
	b.WriteString("# (needs mod_headers).\n")
	// The "always" table, as the Link's: a redirect (mod_dir's 301 for a
	// directory without its slash) gets the headers too, as it does on
	// nginx and Caddy.
	for _, t := range tdmShortestFirst(r.TDM) {
		if ReservedEscape(robots.Canonical(t.Location)) != "" {
			continue // requestform.go
		}
		policy := "Header always unset tdm-policy"
		if t.Policy != "" {
			policy = "Header always set tdm-policy " + quoted(apacheValue(t.Policy))
		}
		apacheSection(b, scope, []string{apacheRaw(robots.Canonical(t.Location))}, fmt.Sprintf("Header always set tdm-reservation \"%d\"", t.Reservation), policy)
	}
	if scoped, query := guarded(tdmLocations(r.TDM)); scoped {
		apacheGuardSection(b, scope, query, "Header always unset tdm-reservation", "Header always unset tdm-policy")
	}
}

// apacheValue escapes a header value for mod_headers, which reads "%" as
// the start of a format specifier ("%D", "%{VAR}e"): "%%" is a percent
// sign, so the escapes of a URL reach the client as written.
func apacheValue(s string) string { return strings.ReplaceAll(s, "%", "%%") }

func caddyRights(b *strings.Builder, r Rights) {
	if r.License != "" {
		b.WriteString("\n# The RSL licence (Link rel=\"license\") on every response.\n")
		fmt.Fprintf(b, "header +Link %s\n", quoted(LicenseLink(r.License)))
	}
	if len(r.TDM) == 0 {
		return
	}
	b.WriteString("\n# The tdm-reservation and tdm-policy headers (W3C TDMRep), as\n")
	b.WriteString("# /.well-known/tdmrep.json says: each rule where it is the first match.\n")
	for i, t := range r.TDM {
		if ReservedEscape(robots.Canonical(t.Location)) != "" {
			continue // requestform.go
		}
		re, ok := pathRegexp(t.Location, true)
		if !ok {
			continue // refused by checkRights
		}
		// The longer locations before it that may share its URLs.
		var longer []string
		for _, u := range r.TDM[:i] {
			if ure, ok := pathRegexp(u.Location, true); ok && ReservedEscape(robots.Canonical(u.Location)) == "" && robots.MayOverlap(u.Location, t.Location) {
				longer = append(longer, ure)
			}
		}
		fmt.Fprintf(b, "@discgen_tdm_%d {\n\tpath_regexp `%s`\n", i, re)
		if len(longer) > 0 {
			fmt.Fprintf(b, "\tnot path_regexp `%s`\n", strings.Join(longer, "|"))
		}
		b.WriteString("}\n")
		fmt.Fprintf(b, "header @discgen_tdm_%d tdm-reservation \"%d\"\n", i, t.Reservation)
		if t.Policy != "" {
			fmt.Fprintf(b, "header @discgen_tdm_%d tdm-policy %s\n", i, quoted(t.Policy))
		}
	}
	if scoped, query := guarded(tdmLocations(r.TDM)); scoped {
		fmt.Fprintf(b, "@discgen_tdm_odd expression `%s`\n", caddyRaw(rawGuard(query)))
		b.WriteString("header @discgen_tdm_odd {\n\t-tdm-reservation\n\t-tdm-policy\n}\n")
	}
}

func headersRights(b *strings.Builder, r Rights) {
	if r.License != "" {
		fmt.Fprintf(b, "\n/*\n  Link: %s\n", LicenseLink(r.License))
	}
	for _, i := range headersTDM(r.TDM) {
		t := r.TDM[i]
		p, _ := headersPath(tdmPath(t.Location))
		fmt.Fprintf(b, "\n%s\n  tdm-reservation: %d\n", p, t.Reservation)
		if t.Policy != "" {
			fmt.Fprintf(b, "  tdm-policy: %s\n", t.Policy)
		}
	}
}

// tdmPath is a location as headersPath reads paths: "" for every path.
func tdmPath(loc string) string {
	if loc == "/" {
		return ""
	}
	return loc
}

// headersTDM returns the indexes of the rules _headers can write: those
// it can match and that share no URL with another rule.
func headersTDM(rules []tdmrep.Rule) []int {
	var out []int
	for i, t := range rules {
		if _, ok := headersPath(tdmPath(t.Location)); !ok {
			continue
		}
		if slices.ContainsFunc(rules, func(u tdmrep.Rule) bool { return u != t && robots.MayOverlap(u.Location, t.Location) }) {
			continue
		}
		out = append(out, i)
	}
	return out
}

// rightsWarnings says which rules _headers leaves out.
func rightsWarnings(kinds []Kind, r Rights) []string {
	if !slices.Contains(kinds, Headers) || len(r.TDM) == 0 {
		return nil
	}
	written := headersTDM(r.TDM)
	var out []string
	for i, t := range r.TDM {
		if slices.Contains(written, i) {
			continue
		}
		why := "shares URLs with another location, and _headers joins the values of every matching rule"
		if _, ok := headersPath(tdmPath(t.Location)); !ok {
			why = headersCannot(robots.Canonical(t.Location))
		}
		out = append(out, fmt.Sprintf("_headers: the TDMRep location %s %s: its tdm-reservation header is not written there (readers take it from %s)", strconv.Quote(t.Location), why, tdmrep.Path))
	}
	return out
}

// checkRights returns an error for each location Caddy cannot match
// faithfully: escapes that do not decode to UTF-8.
func checkRights(kinds []Kind, r Rights) []error {
	if !slices.Contains(kinds, Caddy) {
		return nil
	}
	var errs []error
	for _, t := range r.TDM {
		if _, ok := pathRegexp(t.Location, true); !ok {
			errs = append(errs, fmt.Errorf("caddy: cannot write the tdm-reservation header for %s: its escapes do not decode to UTF-8, and Caddy matches characters", t.Location))
		}
	}
	return errs
}

// At returns what the configuration sends at a URL path: the licence's
// Link value ("" none) and the tdm values, those of the first rule of TDM
// whose location matches (ok false: no tdm header). The live tests check
// that nginx, Apache and Caddy send exactly this.
//
// path is the request target as the client sends it, query included: at
// one the servers do not read as TDMRep readers do, no tdm header is sent
// (requestform.go), and a location with an escaped reserved character is
// not written.
func (r Rights) At(path string) (link string, tdm tdmrep.Rule, ok bool) {
	if r.License != "" {
		link = LicenseLink(r.License)
	}
	if scoped, query := guarded(tdmLocations(r.TDM)); scoped && !NormalTarget(path, query) {
		return link, tdmrep.Rule{}, false
	}
	written := slices.DeleteFunc(slices.Clone(r.TDM), func(t tdmrep.Rule) bool { return ReservedEscape(robots.Canonical(t.Location)) != "" })
	tdm, ok = tdmrep.Lookup(written, path)
	return link, tdm, ok
}
