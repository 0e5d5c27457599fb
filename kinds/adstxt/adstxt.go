// Package adstxt is the kind of ads.txt and app-ads.txt (IAB Tech Lab
// ads.txt 1.1): the manifest's ads_txt and app_ads_txt checked (CheckFile)
// and rendered (RenderFile), a hand-written copy linted line by line
// (LintFile, lint.go) and read back into the manifest (import.go). Ads and
// AppAds are the two kinds (kind.go), one model at two keys and paths.
package adstxt

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/discgen/discgen/kinds/kit"
)

// ads.txt and app-ads.txt follow the IAB Tech Lab "ads.txt Specification
// Version 1.1" (final, 2022; https://iabtechlab.com/ads-txt/) and its
// companion "app-ads.txt" specification, which takes the same records and
// variables. A record is a line of three or four comma-separated fields:
//
//	<advertising system domain>, <publisher account ID>, <DIRECT|RESELLER>[, <certification authority ID>]
//
// and a variable a line <NAME>=<value>; "#" starts a comment anywhere on a
// line (section 3.3). The variables of 1.1 are CONTACT, SUBDOMAIN,
// INVENTORYPARTNERDOMAIN, OWNERDOMAIN (at most one) and MANAGERDOMAIN
// (a domain, optionally followed by ",<ISO 3166-1 alpha-2 country>": at
// most one without a country and one per country). The only certification
// authority the specification names is the Trustworthy Accountability
// Group, whose IDs (TAG-IDs) are 16 hexadecimal digits. A site that
// authorizes no seller writes the placeholder record of section 3.2.1.

const (
	// Placeholder is the record of ads.txt 1.1 section 3.2.1 for a
	// site with no authorized seller.
	Placeholder = "placeholder.example.com, placeholder, DIRECT, placeholder"
)

// File is the model of an ads.txt or app-ads.txt file.
type File struct {
	Records                []Record
	Contact                []string
	Subdomain              []string
	InventoryPartnerDomain []string
	OwnerDomain            string
	ManagerDomain          []string
}

// Record is one record: field #1 to #4 (the advertising system, the
// publisher's account in it, the relationship and the certification
// authority ID), named as in the manifest's records.
type Record struct {
	Domain       string `json:"domain"`
	Account      string `json:"account"`
	Relationship string `json:"relationship"`
	Cert         string `json:"cert,omitempty"`
}

// CheckFile returns every problem of a, in the order of its fields. Each
// Finding's Field is relative to the manifest's ads_txt block
// ("records[2].cert", "managerdomain[1]").
func CheckFile(a File) []kit.Finding {
	var fs []kit.Finding
	add := func(field string, warn bool, msg string) {
		if msg != "" {
			fs = append(fs, kit.Finding{Field: field, Warning: warn, Message: msg})
		}
	}
	seen := map[string]string{}
	for i, r := range a.Records {
		p := fmt.Sprintf("records[%d]", i)
		if strings.EqualFold(r.Domain, "placeholder.example.com") {
			add(p+".domain", false, "this is the placeholder record of ads.txt 1.1 section 3.2.1, for a site with no authorized seller: give \"records: []\" and discgen writes it, alone")
			continue
		}
		msg, warn := CheckDomain(r.Domain, true)
		add(p+".domain", warn, msg)
		msg, warn = CheckAccount(r.Account)
		add(p+".account", warn, msg)
		add(p+".relationship", false, CheckRelationship(r.Relationship))
		if r.Cert != "" {
			add(p+".cert", false, CheckCert(r.Cert))
		}
		key := strings.ToLower(r.Domain) + "," + r.Account + "," + strings.ToUpper(r.Relationship)
		if first, dup := seen[key]; dup {
			add(p, true, fmt.Sprintf("the same seller as %s: one line says it", first))
		} else {
			seen[key] = p
		}
	}
	for i, c := range a.Contact {
		add(fmt.Sprintf("contact[%d]", i), false, adsValue(c))
	}
	for i, d := range a.Subdomain {
		msg, warn := CheckDomain(d, false)
		add(fmt.Sprintf("subdomain[%d]", i), warn, msg)
	}
	for i, d := range a.InventoryPartnerDomain {
		msg, warn := CheckDomain(d, false)
		add(fmt.Sprintf("inventorypartnerdomain[%d]", i), warn, msg)
	}
	if a.OwnerDomain != "" {
		msg, warn := CheckDomain(a.OwnerDomain, false)
		add("ownerdomain", warn, msg)
	}
	countries := map[string]int{}
	for i, m := range a.ManagerDomain {
		p := fmt.Sprintf("managerdomain[%d]", i)
		d, cc, hasCC := strings.Cut(m, ",")
		msg, warn := CheckDomain(d, false)
		add(p, warn, msg)
		if hasCC && !isCountry(cc) {
			add(p, false, fmt.Sprintf("%q after the comma is not a country code: MANAGERDOMAIN takes a domain and, optionally, an ISO 3166-1 alpha-2 code in capitals (manager.example,US)", cc))
			continue
		}
		if first, dup := countries[cc]; dup {
			where := "without a country"
			if cc != "" {
				where = "for " + cc
			}
			add(p, false, fmt.Sprintf("a second MANAGERDOMAIN %s (the first is managerdomain[%d]); ads.txt 1.1 allows one", where, first))
		} else {
			countries[cc] = i
		}
	}
	return fs
}

// CheckDomain checks a domain name of ads.txt: a record's field #1 (record
// true) or a variable's. It returns a message and whether it is only a
// warning, or "".
func CheckDomain(s string, record bool) (string, bool) {
	if msg := adsValue(s); msg != "" {
		return msg, false
	}
	if !isHostname(s) {
		return fmt.Sprintf("%q is not a domain name (letters, digits and \"-\" in dot-separated labels, such as google.com)", s), false
	}
	if reservedDomain(s) {
		if record {
			return fmt.Sprintf("%q is a reserved example domain (RFC 2606), a placeholder: no advertising system is there", s), false
		}
		return fmt.Sprintf("%q is a reserved example domain (RFC 2606), a placeholder", s), true
	}
	return "", false
}

// CheckAccount checks a record's field #2, the publisher's account ID.
func CheckAccount(s string) (string, bool) {
	if msg := adsValue(s); msg != "" {
		return msg, false
	}
	if strings.ContainsAny(s, " \t=") {
		return fmt.Sprintf("%q: an account ID is one token, without spaces or \"=\"", s), false
	}
	lower := strings.ToLower(s)
	rest := lower
	if i := strings.LastIndexAny(lower, "-_"); i >= 0 {
		rest = lower[i+1:]
	}
	switch {
	case strings.Contains(lower, "placeholder") || strings.ContainsAny(s, "<>{}") ||
		len(rest) >= 4 && strings.Trim(rest, "x") == "":
		return fmt.Sprintf("%q is a placeholder, not an account ID: give the ID the advertising system gave you", s), false
	case len(rest) >= 4 && strings.Trim(rest, "0") == "":
		return fmt.Sprintf("%q has only zeros for its number: is it a placeholder?", s), true
	}
	return "", false
}

// CheckRelationship checks a record's field #3: DIRECT or RESELLER, in any
// case.
func CheckRelationship(s string) string {
	switch strings.ToUpper(s) {
	case "DIRECT", "RESELLER":
		return ""
	}
	return fmt.Sprintf("%q is not a relationship: ads.txt 1.1 knows DIRECT and RESELLER", s)
}

// CheckCert checks a record's field #4, a TAG-ID.
func CheckCert(s string) string {
	if len(s) == 16 && strings.Trim(strings.ToLower(s), "0123456789abcdef") == "" {
		return ""
	}
	if strings.Contains(strings.ToLower(s), "placeholder") {
		return fmt.Sprintf("%q is a placeholder: give the advertising system's TAG-ID, or no cert", s)
	}
	return fmt.Sprintf("%q is not a certification authority ID: a TAG-ID is 16 hexadecimal digits (f08c47fec0942fa0)", s)
}

// adsValue refuses what would change the lines of the file: "#" starts a
// comment, "," separates fields, ";" starts the extension field, and
// space or an empty value leaves a field out. (Line breaks and other
// control characters are refused in every manifest value.)
func adsValue(s string) string {
	switch {
	case s == "":
		return "is empty"
	case s != strings.TrimSpace(s):
		return fmt.Sprintf("%q has white space around it", s)
	case strings.Contains(s, "#"):
		return fmt.Sprintf("%q: \"#\" starts a comment in ads.txt, so the rest of the line would be lost", s)
	case strings.Contains(s, ","):
		return fmt.Sprintf("%q: \",\" separates the fields of an ads.txt line", s)
	case strings.Contains(s, ";"):
		return fmt.Sprintf("%q: \";\" starts the extension field of an ads.txt record", s)
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return fmt.Sprintf("%q holds the control character %U", s, r)
		}
	}
	return ""
}

// isHostname reports a DNS name of two labels or more: letters, digits
// and "-", no label starting or ending with "-", at most 253 characters.
func isHostname(s string) bool {
	if len(s) > 253 || !strings.Contains(s, ".") {
		return false
	}
	for _, l := range strings.Split(s, ".") {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// reservedDomain reports the example names of RFC 2606 and RFC 6761:
// example.com, example.net, example.org and their subdomains, and the
// top-level domains example, test, invalid and localhost.
func reservedDomain(s string) bool {
	s = strings.ToLower(strings.TrimSuffix(s, "."))
	labels := strings.Split(s, ".")
	switch labels[len(labels)-1] {
	case "example", "test", "invalid", "localhost":
		return true
	}
	for _, d := range []string{"example.com", "example.net", "example.org"} {
		if s == d || strings.HasSuffix(s, "."+d) {
			return true
		}
	}
	return false
}

func isCountry(s string) bool {
	return len(s) == 2 && 'A' <= s[0] && s[0] <= 'Z' && 'A' <= s[1] && s[1] <= 'Z'
}

// RenderFile returns the bytes of the file: a comment naming the
// specification, the records in manifest order (the relationship in
// capitals; the placeholder record when there is none), then the
// variables in the order OWNERDOMAIN, MANAGERDOMAIN, CONTACT, SUBDOMAIN,
// INVENTORYPARTNERDOMAIN, each in manifest order. Lines end in LF.
// name is "ads.txt" or "app-ads.txt". The caller checks a first.
func RenderFile(a File, name string) []byte {
	var b bytes.Buffer
	spec := "IAB Tech Lab ads.txt 1.1"
	if name == "app-ads.txt" {
		spec = "IAB Tech Lab app-ads.txt, ads.txt 1.1 records and variables"
	}
	fmt.Fprintf(&b, "# %s (%s), generated by discgen from the site manifest.\n", name, spec)
	if len(a.Records) == 0 {
		b.WriteString(Placeholder + "\n")
	}
	for _, r := range a.Records {
		fmt.Fprintf(&b, "%s, %s, %s", r.Domain, r.Account, strings.ToUpper(r.Relationship))
		if r.Cert != "" {
			b.WriteString(", " + r.Cert)
		}
		b.WriteByte('\n')
	}
	if a.OwnerDomain != "" {
		b.WriteString("OWNERDOMAIN=" + a.OwnerDomain + "\n")
	}
	for _, vs := range []struct {
		name   string
		values []string
	}{{"MANAGERDOMAIN", a.ManagerDomain}, {"CONTACT", a.Contact}, {"SUBDOMAIN", a.Subdomain}, {"INVENTORYPARTNERDOMAIN", a.InventoryPartnerDomain}} {
		for _, v := range vs.values {
			b.WriteString(vs.name + "=" + v + "\n")
		}
	}
	return b.Bytes()
}
