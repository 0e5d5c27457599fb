package adopt

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/validate"
	"github.com/discgen/discgen/wellknown"
	"go.yaml.in/yaml/v3"
)

// The files of design section 13. ads.txt and app-ads.txt become ads_txt
// and app_ads_txt: their records and variables, each line that is neither
// reported and left out. gpc.json, traffic-advice and atproto-did become
// well_known.gpc, traffic_advice and atproto_did when the manifest builds
// them byte for byte (discgen's own output); any other is kept as a
// well-known file, byte for byte, as the app association files are.

// rootProbes are the files of the site's root Fetch asks for besides
// robots.txt, data.txt and llms.txt.
var rootProbes = []string{"ads.txt", "app-ads.txt"}

// adsTxt imports ads.txt and app-ads.txt from the tree's root.
func (d *dirImport) adsTxt() {
	for _, f := range []struct {
		name string
		dst  **manifest.AdsTxt
	}{{"ads.txt", &d.r.Site.AdsTxt}, {"app-ads.txt", &d.r.Site.AppAdsTxt}} {
		data := d.read(f.name)
		if data == nil {
			continue
		}
		if !utf8.Valid(data) {
			d.warn(f.name, 0, "is not UTF-8: left out")
			continue
		}
		a := d.parseAdsTxt(f.name, data)
		*f.dst = a
		if !bytes.Equal(wellknown.RenderAdsTxt(validate.AdsTxt(a), f.name), data) {
			d.warn(f.name, 0, "is rebuilt in discgen's form: its records, then OWNERDOMAIN, MANAGERDOMAIN, CONTACT, SUBDOMAIN and INVENTORYPARTNERDOMAIN, with discgen's comment; other comments and spacing are not kept")
		}
	}
}

// parseAdsTxt reads the records and variables of an ads.txt; a line that
// is neither, and a variable ads.txt 1.1 does not define, are reported and
// left out. The placeholder record alone becomes an empty records list.
func (d *dirImport) parseAdsTxt(name string, data []byte) *manifest.AdsTxt {
	a := &manifest.AdsTxt{Records: []manifest.AdsRecord{}}
	placeholder := false
	for i, raw := range strings.Split(strings.TrimPrefix(string(data), "\ufeff"), "\n") {
		n := i + 1
		line, _, _ := strings.Cut(strings.TrimSuffix(raw, "\r"), "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		eq, comma := strings.IndexByte(line, '='), strings.IndexByte(line, ',')
		if eq >= 0 && (comma < 0 || eq < comma) {
			value := strings.TrimSpace(line[eq+1:])
			switch strings.ToUpper(strings.TrimSpace(line[:eq])) {
			case "CONTACT":
				a.Contact = append(a.Contact, value)
			case "SUBDOMAIN":
				a.Subdomain = append(a.Subdomain, value)
			case "INVENTORYPARTNERDOMAIN":
				a.InventoryPartnerDomain = append(a.InventoryPartnerDomain, value)
			case "OWNERDOMAIN":
				if a.OwnerDomain != "" {
					d.warn(name, n, "a second OWNERDOMAIN: crawlers use the first, so it is left out")
					continue
				}
				a.OwnerDomain = value
			case "MANAGERDOMAIN":
				a.ManagerDomain = append(a.ManagerDomain, value)
			default:
				d.warn(name, n, "%q is not a variable of ads.txt 1.1: left out", strings.TrimSpace(line[:eq]))
			}
			continue
		}
		body, ext, hasExt := strings.Cut(line, ";")
		parts := strings.Split(body, ",")
		if len(parts) < 3 || len(parts) > 4 {
			d.warn(name, n, "%q is neither a record nor a variable: left out", line)
			continue
		}
		if hasExt {
			d.warn(name, n, "the extension field %q is not kept: the manifest has none", strings.TrimSpace(ext))
		}
		r := manifest.AdsRecord{Domain: strings.TrimSpace(parts[0]), Account: strings.TrimSpace(parts[1]), Relationship: strings.ToUpper(strings.TrimSpace(parts[2]))}
		if len(parts) == 4 {
			r.Cert = strings.TrimSpace(parts[3])
		}
		if strings.EqualFold(r.Domain, "placeholder.example.com") {
			placeholder = true
			continue
		}
		a.Records = append(a.Records, r)
	}
	if placeholder && len(a.Records) > 0 {
		d.warn(name, 0, "the placeholder record (no seller) beside sellers: left out")
	}
	return a
}

// sectionWellKnown imports a well-known file into its own manifest key
// when the manifest builds it byte for byte; it reports whether it did.
func (d *dirImport) sectionWellKnown(wk *manifest.WellKnown, name string, data []byte) bool {
	switch name {
	case "gpc.json":
		var g struct {
			GPC        *bool   `json:"gpc"`
			LastUpdate *string `json:"lastUpdate"`
		}
		if json.Unmarshal(data, &g) != nil || g.GPC == nil {
			return false
		}
		m := &manifest.GPC{}
		if !*g.GPC {
			m.GPC = g.GPC
		}
		if g.LastUpdate != nil {
			m.LastUpdate = *g.LastUpdate
		}
		if !bytes.Equal(wellknown.RenderGPC(validate.GPC(m)), data) {
			return false
		}
		wk.GPC = m
	case "traffic-advice":
		var list []struct {
			UserAgent string       `json:"user_agent"`
			Fraction  *json.Number `json:"fraction"`
			Disallow  bool         `json:"disallow"`
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if dec.Decode(&list) != nil || len(list) == 0 {
			return false
		}
		m := make([]manifest.TrafficAdvice, len(list))
		for i, e := range list {
			m[i] = manifest.TrafficAdvice{UserAgent: e.UserAgent, Fraction: e.Fraction, Disallow: e.Disallow}
		}
		if !bytes.Equal(wellknown.RenderTrafficAdvice(validate.TrafficAdvice(m)), data) {
			return false
		}
		wk.TrafficAdvice = m
	case "atproto-did":
		if wellknown.CheckAtprotoDID(string(data)) != "" {
			return false
		}
		wk.AtprotoDID = string(data)
	default:
		return false
	}
	return true
}

// sectionNodes writes ads_txt and app_ads_txt.
func sectionNodes(root mapping, c comments, m *manifest.Site) {
	for _, f := range []struct {
		key string
		a   *manifest.AdsTxt
	}{{"ads_txt", m.AdsTxt}, {"app_ads_txt", m.AppAdsTxt}} {
		if f.a == nil {
			continue
		}
		e := newMapping(c, f.key)
		recs := seq(c, manifest.Key(f.key, "records"), len(f.a.Records), func(i int, p string) *yaml.Node {
			r := f.a.Records[i]
			x := newMapping(c, "")
			x.n.Style = yaml.FlowStyle
			x.add("domain", str(r.Domain))
			x.add("account", str(r.Account))
			x.add("relationship", str(r.Relationship))
			x.addStr("cert", r.Cert)
			return x.n
		})
		if len(f.a.Records) == 0 {
			recs.Style = yaml.FlowStyle
		}
		e.add("records", recs)
		e.addList("contact", f.a.Contact)
		e.addList("subdomain", f.a.Subdomain)
		e.addList("inventorypartnerdomain", f.a.InventoryPartnerDomain)
		e.addStr("ownerdomain", f.a.OwnerDomain)
		e.addList("managerdomain", f.a.ManagerDomain)
		root.add(f.key, e.n)
	}
}

// sectionWellKnownNodes writes gpc, traffic_advice and atproto_did.
func sectionWellKnownNodes(m mapping, c comments, wk *manifest.WellKnown) {
	if g := wk.GPC; g != nil {
		e := newMapping(c, "well_known.gpc")
		e.n.Style = yaml.FlowStyle
		if g.GPC != nil {
			e.add("gpc", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"})
		}
		e.addStr("last_update", g.LastUpdate)
		m.add("gpc", e.n)
	}
	if len(wk.TrafficAdvice) > 0 {
		m.add("traffic_advice", seq(c, "well_known.traffic_advice", len(wk.TrafficAdvice), func(i int, p string) *yaml.Node {
			t := wk.TrafficAdvice[i]
			x := newMapping(c, "")
			x.n.Style = yaml.FlowStyle
			x.add("user_agent", str(t.UserAgent))
			if t.Fraction != nil {
				x.add("fraction", num(*t.Fraction))
			}
			if t.Disallow {
				x.add("disallow", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
			}
			return x.n
		}))
	}
	m.addStr("atproto_did", wk.AtprotoDID)
}
