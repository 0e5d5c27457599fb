package adstxt

import (
	"bytes"
	"strings"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// Import reads the records and variables of a copy of the file into the
// site's value; a line that is neither, and a variable ads.txt 1.1 does
// not define, are reported and left out. The placeholder record alone
// becomes an empty records list. A copy that is not discgen's rendering
// of what was read is reported as rebuilt. data is UTF-8.
func (k Kind) Import(site *manifest.Site, data []byte, warn func(line int, format string, args ...any)) bool {
	a := parse(data, warn)
	kit.SetValue(site, k.key, a)
	if !bytes.Equal(RenderFile(Model(a), k.name), data) {
		warn(0, "is rebuilt in discgen's form: its records, then OWNERDOMAIN, MANAGERDOMAIN, CONTACT, SUBDOMAIN and INVENTORYPARTNERDOMAIN, with discgen's comment; other comments and spacing are not kept")
	}
	return true
}

func parse(data []byte, warn func(line int, format string, args ...any)) *Value {
	a := &Value{Records: []Record{}}
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
					warn(n, "a second OWNERDOMAIN: crawlers use the first, so it is left out")
					continue
				}
				a.OwnerDomain = value
			case "MANAGERDOMAIN":
				a.ManagerDomain = append(a.ManagerDomain, value)
			default:
				warn(n, "%q is not a variable of ads.txt 1.1: left out", strings.TrimSpace(line[:eq]))
			}
			continue
		}
		body, ext, hasExt := strings.Cut(line, ";")
		parts := strings.Split(body, ",")
		if len(parts) < 3 || len(parts) > 4 {
			warn(n, "%q is neither a record nor a variable: left out", line)
			continue
		}
		if hasExt {
			warn(n, "the extension field %q is not kept: the manifest has none", strings.TrimSpace(ext))
		}
		r := Record{Domain: strings.TrimSpace(parts[0]), Account: strings.TrimSpace(parts[1]), Relationship: strings.ToUpper(strings.TrimSpace(parts[2]))}
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
		warn(0, "the placeholder record (no seller) beside sellers: left out")
	}
	return a
}
