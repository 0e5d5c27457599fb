package securitytxt

import (
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/discgen/discgen/kinds/kit"
)

// File is the model of a security.txt file (RFC 9116). Every field
// but Expires may repeat; the caller turns a manifest value given as a single
// string into a one-element list. Values are kept in manifest order.
type File struct {
	Contact            []string // RFC 9116 section 2.5.3; mailto:, tel: or https: URIs
	Expires            string   // section 2.5.5; RFC 3339 timestamp or duration, see ResolveExpires
	Encryption         []string // section 2.5.4
	Acknowledgments    []string // section 2.5.1
	PreferredLanguages []string // section 2.5.8; RFC 5646 language tags
	Canonical          []string // section 2.5.2
	Policy             []string // section 2.5.7
	Hiring             []string // section 2.5.6
	CSAF               []string // CSAF 2.0 (OASIS): URL of a provider-metadata.json
	// BugBounty is the Bug-Bounty field of IANA's registry (True: reporters
	// may be rewarded; False: they cannot be); nil leaves it out.
	BugBounty *bool
}

// expiresSoon: an Expires closer than this to now draws a warning.
const expiresSoon = kit.ExpiresSoon

// CheckFile returns every problem of s, in field order (the order
// of RenderFile) and, within a field, in value order. now is the
// build's time, against which Expires is judged. The rules:
//
//   - contact: at least one (RFC 9116 section 2.5.3); each a mailto:, tel:
//     or https: URI.
//   - expires: required (section 2.5.5; the model holds one value, so
//     "exactly one" is the schema's job), a timestamp or a duration (see
//     ResolveExpires); in the past, or equal to now, is an error; more
//     than a year after now is a warning (section 2.5.5 recommends less
//     than a year); less than 30 days after now is a warning.
//   - encryption, acknowledgments, canonical, policy, hiring: absolute URIs
//     of any scheme (dns:, openpgp4fpr: ...). A relative reference is an
//     error; a caller that allows them resolves them against site.url first.
//   - csaf: https: URIs.
//   - every web URI (http: or https:) must use https and name a host
//     (RFC 9116 section 2.5 for each field).
//   - preferred_languages: RFC 5646 language tags.
//   - no value may hold a control character, a space or a non-ASCII
//     character: it could break or inject a line of the file.
//   - a value repeated within a field is a warning.
func CheckFile(s File, now time.Time) []kit.Finding {
	var fs []kit.Finding
	if len(s.Contact) == 0 {
		fs = append(fs, kit.Finding{Field: "contact", Message: "at least one contact is required (RFC 9116 section 2.5.3)"})
	}
	fs = checkURIs(fs, "contact", s.Contact, checkContact)
	fs = checkExpires(fs, s.Expires, now)
	fs = checkURIs(fs, "encryption", s.Encryption, nil)
	fs = checkURIs(fs, "acknowledgments", s.Acknowledgments, nil)
	fs = checkLanguages(fs, s.PreferredLanguages)
	fs = checkURIs(fs, "canonical", s.Canonical, nil)
	fs = checkURIs(fs, "policy", s.Policy, nil)
	fs = checkURIs(fs, "hiring", s.Hiring, nil)
	fs = checkURIs(fs, "csaf", s.CSAF, checkCSAF)
	return fs
}

func checkExpires(fs []kit.Finding, expires string, now time.Time) []kit.Finding {
	if expires == "" {
		return append(fs, kit.Finding{Field: "expires", Message: "expires is required (RFC 9116 section 2.5.5)"})
	}
	if msg := checkText(expires); msg != "" {
		return append(fs, kit.Finding{Field: "expires", Message: msg})
	}
	t, err := ResolveExpires(expires, now)
	if err != nil {
		return append(fs, kit.Finding{Field: "expires", Message: err.Error()})
	}
	now = now.UTC()
	stamp := t.Format(time.RFC3339)
	switch {
	case !t.After(now):
		fs = append(fs, kit.Finding{Field: "expires", Message: fmt.Sprintf("expires %s is in the past (now is %s)", stamp, now.Format(time.RFC3339))})
	case t.After(now.AddDate(1, 0, 0)):
		fs = append(fs, kit.Finding{Field: "expires", Warning: true, Message: fmt.Sprintf("expires %s is more than a year ahead; RFC 9116 recommends less than a year", stamp)})
	case t.Before(now.Add(expiresSoon)):
		fs = append(fs, kit.Finding{Field: "expires", Warning: true, Message: fmt.Sprintf("expires %s is less than 30 days away", stamp)})
	}
	return fs
}

func checkLanguages(fs []kit.Finding, tags []string) []kit.Finding {
	seen := make(map[string]int)
	for i, tag := range tags {
		field := fmt.Sprintf("preferred_languages[%d]", i)
		switch {
		case tag == "":
			fs = append(fs, kit.Finding{Field: field, Message: "language tag is empty"})
		case !kit.ValidLanguageTag(tag):
			fs = append(fs, kit.Finding{Field: field, Message: fmt.Sprintf("%q is not an RFC 5646 language tag", tag)})
		default:
			key := strings.ToLower(tag)
			if j, ok := seen[key]; ok {
				fs = append(fs, kit.Finding{Field: field, Warning: true, Message: fmt.Sprintf("duplicate of preferred_languages[%d]", j)})
			} else {
				seen[key] = i
			}
		}
	}
	return fs
}

// checkURIs checks each value of one field as an absolute URI, then runs
// extra (if any) on the parsed URI for field-specific rules.
func checkURIs(fs []kit.Finding, name string, values []string, extra func(raw string, u *url.URL) string) []kit.Finding {
	seen := make(map[string]int)
	for i, v := range values {
		field := fmt.Sprintf("%s[%d]", name, i)
		msg := checkURI(name, v)
		if msg == "" && extra != nil {
			u, _ := url.Parse(v) // checkURI has parsed it already
			msg = extra(v, u)
		}
		if msg != "" {
			fs = append(fs, kit.Finding{Field: field, Message: msg})
			continue
		}
		if j, ok := seen[v]; ok {
			fs = append(fs, kit.Finding{Field: field, Warning: true, Message: fmt.Sprintf("duplicate of %s[%d]", name, j)})
		} else {
			seen[v] = i
		}
	}
	return fs
}

// checkURI returns why v is not an acceptable absolute URI, or "".
func checkURI(name, v string) string {
	if v == "" {
		return "value is empty"
	}
	if msg := checkText(v); msg != "" {
		return msg
	}
	u, err := url.Parse(v)
	if err != nil {
		return fmt.Sprintf("%q is not a valid URI", v)
	}
	if u.Scheme == "" {
		if name == "contact" && strings.Contains(v, "@") {
			return fmt.Sprintf("%q is not a URI; write \"mailto:%s\"", v, v)
		}
		return fmt.Sprintf("%q is not an absolute URI", v)
	}
	switch u.Scheme {
	case "http":
		return "web URI must use https"
	case "https":
		if u.Host == "" {
			return fmt.Sprintf("%q has no host", v)
		}
	}
	return ""
}

// checkText refuses what could break the line-based file format or is not
// allowed in a URI at all.
func checkText(v string) string {
	for _, r := range v {
		switch {
		case r < 0x20 || r == 0x7f:
			return fmt.Sprintf("%q contains a control character", v)
		case r == ' ':
			return fmt.Sprintf("%q contains a space", v)
		case r >= utf8.RuneSelf:
			return fmt.Sprintf("%q contains a non-ASCII character; percent-encode it", v)
		}
	}
	return ""
}

func checkContact(raw string, u *url.URL) string {
	switch u.Scheme {
	case "mailto":
		if u.Opaque == "" {
			return fmt.Sprintf("%q has no address", raw)
		}
	case "tel":
		if u.Opaque == "" {
			return fmt.Sprintf("%q has no number", raw)
		}
	case "https":
	default:
		return fmt.Sprintf("contact must be a mailto:, tel: or https: URI, not %s:", u.Scheme)
	}
	return ""
}

func checkCSAF(raw string, u *url.URL) string {
	if u.Scheme != "https" {
		return fmt.Sprintf("csaf must be an https: URI, not %s:", u.Scheme)
	}
	return ""
}
