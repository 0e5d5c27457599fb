package apicatalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"slices"
	"strings"
)

// The api-catalog of RFC 9727 (June 2025) is an RFC 9264 (July 2022)
// linkset in its JSON form, served at /.well-known/api-catalog.
const (
	// LinksetType is the media type of a JSON linkset (RFC 9264 section
	// 4.2).
	LinksetType = "application/linkset+json"
	// APICatalogProfile is the profile URI RFC 9727 registers (in its IANA
	// considerations) for an api-catalog linkset; a server names it in
	// the profile parameter RFC 9264 gives the linkset media types.
	APICatalogProfile = "https://www.rfc-editor.org/info/rfc9727"
)

// APIRelations are the link relations an api-catalog entry may carry, in
// the order they are written: the four RFC 9727 names to describe an API
// (service-desc, service-doc, service-meta, status; RFC 8631 registers
// them) and "item" (RFC 6573), with which RFC 9727 lets a catalog list
// further catalogs or APIs. The list is the caller's to change.
func APIRelations() []string { return slices.Clone(apiRelations[:]) }

var apiRelations = [...]string{"service-desc", "service-doc", "service-meta", "status", "item"}

// LinkContext is one link context object of a linkset: the anchor, and
// its links by relation.
type LinkContext struct {
	Anchor string
	// Links maps a relation of APIRelations to its targets; relations
	// with no targets are left out.
	Links map[string][]LinkTarget
}

// LinkTarget is one link target object.
type LinkTarget struct {
	Href  string
	Type  string
	Title string
}

// RenderLinkset writes contexts as an RFC 9264 JSON linkset: members in a
// fixed order (anchor, then the relations in APIRelations order; href,
// type, title), indented by two spaces, ending with a line break. Strings
// are JSON-escaped, so no value can add a member or a line.
func RenderLinkset(contexts []LinkContext) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"linkset\": [")
	for i, c := range contexts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    {\n      \"anchor\": " + jsonString(c.Anchor))
		for _, rel := range apiRelations {
			ts := c.Links[rel]
			if len(ts) == 0 {
				continue
			}
			b.WriteString(",\n      " + jsonString(rel) + ": [")
			for j, t := range ts {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString("\n        {\n          \"href\": " + jsonString(t.Href))
				if t.Type != "" {
					b.WriteString(",\n          \"type\": " + jsonString(t.Type))
				}
				if t.Title != "" {
					b.WriteString(",\n          \"title\": " + jsonString(t.Title))
				}
				b.WriteString("\n        }")
			}
			b.WriteString("\n      ]")
		}
		b.WriteString("\n    }")
	}
	if len(contexts) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	return b.Bytes()
}

// jsonString writes s as a JSON string, without escaping <, > and &.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// isRestrictedName reports whether s follows the RFC 6838 section 4.2
// grammar of a type or subtype name: up to 127 characters, starting with
// a letter or digit, then letters, digits and !#$&^_.+- (as the regular
// expression ^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$, whose bounded
// repetition took 80 us to compile, more than a build's every check of
// it).
func isRestrictedName(s string) bool {
	if len(s) == 0 || len(s) > 127 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case i > 0 && strings.IndexByte("!#$&^_.+-", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// CheckMediaType returns an error unless s is a media type as RFC 9110
// section 8.3.1 writes one: type "/" subtype, each an RFC 6838 restricted
// name, then optional parameters. Wildcards ("*/*", "text/*") name a
// range, not a type, and are refused.
func CheckMediaType(s string) error {
	mt, _, err := mime.ParseMediaType(s)
	if err != nil {
		return fmt.Errorf("%q is not a media type (type/subtype, as application/json): %v", s, err)
	}
	typ, sub, ok := strings.Cut(mt, "/")
	if !ok || !isRestrictedName(typ) || !isRestrictedName(sub) {
		return fmt.Errorf("%q is not a media type (type/subtype, as application/json)", s)
	}
	return nil
}
