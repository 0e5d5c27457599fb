package adopt

import (
	"net/url"
	"strings"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/tdmrep"
	"go.yaml.in/yaml/v3"
)

// isLicense reports a robots.txt License line (RSL 1.0), which
// importLicense reads from the whole file: robots.Parse puts one after the
// last group's rules in that group, where it is not the group's.
func isLicense(l robots.Line) bool { return strings.EqualFold(l.Key, "license") }

// importLicense reads the file's License lines (RSL 1.0) into the site's
// licence: the first with an absolute http(s) URL. The manifest writes it
// as a global line after every group, which changes no verdict; one inside
// a group is carried as the site's with a warning, others are reported.
func importLicense(data []byte, warn func(int, string, ...any)) *manifest.License {
	var lic *manifest.License
	for _, l := range robots.Licenses(data) {
		u, err := url.Parse(l.Value)
		switch {
		case err != nil || !u.IsAbs() || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || !plain(l.Value) || strings.ContainsAny(l.Value, " \t"):
			warn(l.Num, "License: %s is not an absolute http(s) URL, which RSL 1.0 requires: left out", l.Value)
		case strings.ContainsAny(l.Value, "<>\"\\^`{|}$"):
			warn(l.Num, "License: %s holds a character discgen does not write into a Link header (one of <>\"\\^`{|}$): left out", l.Value)
		case lic != nil:
			warn(l.Num, "License: %s: a second License line; the manifest has one licence, the first (%s): left out", l.Value, lic.URL)
		default:
			if l.Grouped {
				warn(l.Num, "License: %s is inside a group; RSL 1.0 makes it global: carried as the site's licence, written after every group", l.Value)
			}
			lic = &manifest.License{URL: l.Value}
		}
	}
	return lic
}

// importTDM reads a /.well-known/tdmrep.json (W3C TDMRep, final report
// 2024-05-10) into tdm: the rule for "/" is the site's reservation, every
// other rule a path. A reader takes the first matching rule, the manifest
// the longest: a rule that a shorter one before it hides (its location
// starts with the shorter's, and has no wildcard) is left out, and a
// wildcard rule after an overlapping shorter one is carried with a
// warning. A path that states no policy where the site's rule has one
// would take the site's: reported.
func importTDM(data []byte, warn func(int, string, ...any)) *manifest.TDM {
	ps, probs := tdmrep.Parse(data)
	for _, p := range probs {
		warn(p.Line, "%s", p.Message)
	}
	if len(ps) == 0 {
		return nil
	}
	t := &manifest.TDM{}
	yes := func(n int) *bool { b := n == 1; return &b }
	var kept []tdmrep.Parsed
	for _, p := range ps {
		c := robots.Canonical(p.Location)
		hidden := ""
		for _, q := range kept {
			qc := robots.Canonical(q.Location)
			if len(qc) < len(c) && strings.HasPrefix(c, strings.TrimSuffix(qc, "*")) && !strings.ContainsAny(qc, "$") {
				hidden = q.Location
				break
			}
		}
		if hidden != "" && !strings.ContainsAny(c, "*$") {
			warn(p.Line, "location %s comes after %s, which a reader matches first wherever both match: the rule is never read, left out", p.Location, hidden)
			continue
		}
		if hidden != "" {
			warn(p.Line, "location %s comes after %s: a reader takes the first match, the manifest the longest, so where both match the manifest gives %s's reservation", p.Location, hidden, p.Location)
		}
		kept = append(kept, p)
		if c == "/" && t.Reservation == nil {
			t.Reservation, t.Policy = yes(p.Reservation), p.Policy
			continue
		}
		t.Paths = append(t.Paths, manifest.TDMPath{Path: c, Reservation: yes(p.Reservation), Policy: p.Policy})
	}
	if t.Policy != "" {
		for _, p := range kept {
			if robots.Canonical(p.Location) != "/" && p.Reservation == 1 && p.Policy == "" {
				warn(p.Line, "location %s states no policy, and the manifest gives a reserved path the site's (%s)", p.Location, t.Policy)
			}
		}
	}
	return t
}

// licenseNode and tdmNode write the blocks.
func licenseNode(c comments, l *manifest.License) *yaml.Node {
	m := newMapping(c, "license")
	m.add("url", str(l.URL))
	m.addStr("source", l.Source)
	return m.n
}

func tdmNode(c comments, t *manifest.TDM) *yaml.Node {
	m := newMapping(c, "tdm")
	if t.Reservation != nil {
		m.add("reservation", boolNode(*t.Reservation))
	}
	m.addStr("policy", t.Policy)
	if len(t.Paths) > 0 {
		m.add("paths", seq(c, m.sub("paths"), len(t.Paths), func(j int, _ string) *yaml.Node {
			p := t.Paths[j]
			x := newMapping(c, "")
			x.n.Style = yaml.FlowStyle
			x.add("path", str(p.Path))
			if p.Reservation != nil {
				x.add("reservation", boolNode(*p.Reservation))
			}
			x.addStr("policy", p.Policy)
			return x.n
		}))
	}
	return m.n
}

func boolNode(b bool) *yaml.Node {
	v := "false"
	if b {
		v = "true"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: v}
}

// licenseFile reports the licence's RSL document when the tree holds it
// at the URL's path: the manifest names the document by URL and
// publishes it only from a file (license.source), which import does not
// write, so the document stays where it is, with a warning.
func (d *dirImport) licenseFile() {
	l := d.r.Site.License
	if l == nil {
		return
	}
	u, err := url.Parse(l.URL)
	if err != nil || u.Path == "" || strings.HasSuffix(u.Path, "/") {
		return
	}
	name := strings.TrimPrefix(u.Path, "/")
	if _, ok := d.readFound(name); ok {
		d.warn(name, 0, "is the RSL document License names: left out of the manifest, which publishes it only from a file; give license.source (a copy beside the manifest) to have discgen check and publish it")
	}
}
