package wellknown

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/discgen/discgen/internal/lazyre"
)

// Small well-known files of design section 13, each with its source:
//
//   - gpc.json: W3C "Global Privacy Control (GPC)", Working Draft
//     (https://www.w3.org/TR/gpc/, section "GPC Support Resource"): a JSON
//     object whose gpc member is a boolean (true: the site honours the
//     signal) and whose optional lastUpdate is an ISO 8601 date
//     (YYYY-MM-DD), served as application/json.
//   - traffic-advice: "Traffic Advice" (Private Prefetch Proxy explainer
//     and specification, https://buettner.github.io/private-prefetch-proxy/traffic-advice.html):
//     a JSON list of {user_agent, disallow, fraction} entries, fraction from
//     0 to 1, served as application/trafficadvice+json.
//   - change-password: W3C "A Well-Known URL for Changing Passwords"
//     (https://www.w3.org/TR/change-password-url/): the server redirects
//     with 302, 303 or 307 and a Location; not a file.
//   - atproto-did: AT Protocol "Handle" specification, HTTPS well-known
//     method (https://atproto.com/specs/handle): the DID as the whole body,
//     served as text/plain. Resolvers trim white space "for best
//     compatibility", so the body is the DID alone, with no line break.
const (
	GPCPath            = "/.well-known/gpc.json"
	TrafficAdvicePath  = "/.well-known/traffic-advice"
	ChangePasswordPath = "/.well-known/change-password"
	AtprotoDIDPath     = "/.well-known/atproto-did"

	TrafficAdviceMediaType = "application/trafficadvice+json"
	// ChangePasswordStatus is the redirect discgen writes: 302 Found,
	// the first the specification names.
	ChangePasswordStatus = 302
)

// GPC is the model of gpc.json.
type GPC struct {
	GPC        bool
	LastUpdate string // YYYY-MM-DD, or ""
}

// CheckGPCDate checks lastUpdate: a real calendar date, YYYY-MM-DD.
func CheckGPCDate(s string) string {
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return fmt.Sprintf("%q is not a date: lastUpdate is an ISO 8601 date, YYYY-MM-DD", s)
	}
	return ""
}

// RenderGPC returns the bytes of gpc.json: {"gpc": ..., "lastUpdate": ...}
// indented by two spaces, ending in LF.
func RenderGPC(g GPC) []byte {
	out := struct {
		GPC        bool   `json:"gpc"`
		LastUpdate string `json:"lastUpdate,omitempty"`
	}{g.GPC, g.LastUpdate}
	return marshalFile(out)
}

// TrafficAdvice is one entry of the traffic-advice list.
type TrafficAdvice struct {
	UserAgent string
	Fraction  string // a JSON number from 0 to 1, or "" for none
	Disallow  bool
}

// CheckTrafficAdvice returns the problems of the list, each Field relative
// to the manifest's traffic_advice ("[1].fraction").
func CheckTrafficAdvice(list []TrafficAdvice) []Finding {
	var fs []Finding
	seen := map[string]int{}
	for i, e := range list {
		p := fmt.Sprintf("[%d]", i)
		if e.UserAgent == "" || strings.ContainsAny(e.UserAgent, " \t\"") {
			fs = append(fs, Finding{Field: p + ".user_agent", Message: fmt.Sprintf("%q is not an agent name (a brand name such as ExamplePrefetchProxy, prefetch-proxy or *)", e.UserAgent)})
		} else if first, dup := seen[e.UserAgent]; dup {
			fs = append(fs, Finding{Field: p + ".user_agent", Message: fmt.Sprintf("%q has advice at [%d] already: an agent follows the first entry that names it", e.UserAgent, first)})
		} else {
			seen[e.UserAgent] = i
		}
		if e.Fraction != "" {
			f, err := strconv.ParseFloat(e.Fraction, 64)
			if err != nil || f < 0 || f > 1 {
				fs = append(fs, Finding{Field: p + ".fraction", Message: fmt.Sprintf("%s is not a fraction from 0 to 1", e.Fraction)})
			} else if e.Disallow {
				fs = append(fs, Finding{Field: p + ".fraction", Warning: true, Message: "disallow: true sends no traffic whatever the fraction"})
			}
		} else if !e.Disallow {
			fs = append(fs, Finding{Field: p, Message: "the entry advises nothing: give disallow: true or a fraction"})
		}
	}
	return fs
}

// RenderTrafficAdvice returns the bytes of traffic-advice: the entries in
// manifest order, each {"user_agent", then "disallow" when true, then
// "fraction" as written}, indented by two spaces, ending in LF.
func RenderTrafficAdvice(list []TrafficAdvice) []byte {
	type entry struct {
		UserAgent string      `json:"user_agent"`
		Disallow  bool        `json:"disallow,omitempty"`
		Fraction  json.Number `json:"fraction,omitempty"`
	}
	out := make([]entry, len(list))
	for i, e := range list {
		out[i] = entry{e.UserAgent, e.Disallow, json.Number(e.Fraction)}
	}
	return marshalFile(out)
}

func marshalFile(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err) // unreachable: the values are strings, booleans and checked numbers
	}
	return b.Bytes()
}

// didPLC is a did:plc identifier: 24 characters of base32 (a-z, 2-7).
// didWeb is a did:web identifier: a host name, with an optional port
// written %3A, and optional path segments after ":".
var (
	didPLC = lazyre.New(`^did:plc:[a-z2-7]{24}$`)
	didWeb = lazyre.New(`^did:web:[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(%3[Aa][0-9]+)?(:[A-Za-z0-9._~%-]+)*$`)
)

// CheckAtprotoDID checks the DID of atproto-did: did:plc (the method most
// accounts have) or did:web, the two the AT Protocol supports.
func CheckAtprotoDID(s string) string {
	switch {
	case s != strings.TrimSpace(s) || strings.ContainsAny(s, " \t\r\n"):
		return fmt.Sprintf("%q holds white space: the file is the DID alone", s)
	case strings.HasPrefix(s, "did:plc:"):
		if !didPLC.MatchString(s) {
			return fmt.Sprintf("%q is not a did:plc identifier: did:plc: and 24 characters of a-z and 2-7", s)
		}
	case strings.HasPrefix(s, "did:web:"):
		if !didWeb.MatchString(s) {
			return fmt.Sprintf("%q is not a did:web identifier: did:web: and a lower-case host name", s)
		}
	default:
		return fmt.Sprintf("%q is not a DID the AT Protocol supports: did:plc:... or did:web:...", s)
	}
	return ""
}

// CheckChangePassword checks where change-password redirects: a path of
// the site (starting with "/", not "//") or an absolute https URL.
func CheckChangePassword(s string) (msg string, warn bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') && !strings.ContainsRune("-._~:/?#[]@!&()*+,;=%", rune(c)) {
			// Space and quotes end a value in server configurations, "$"
			// starts an nginx variable or an Apache back-reference, "{" a
			// Caddy placeholder.
			return fmt.Sprintf("%q holds %q, which a URL does not hold as it is and a server configuration could read otherwise: percent-encode it", s, c), false
		}
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return fmt.Sprintf("%q is not a URL: %v", s, err), false
	case strings.HasPrefix(s, "//"):
		return fmt.Sprintf("%q is a scheme-relative URL: give a path (/account/password) or an https URL", s), false
	case strings.HasPrefix(s, "/"):
		if strings.Trim(u.Path, "/") == ".well-known/change-password" {
			return fmt.Sprintf("%q redirects to itself", s), false
		}
		return "", false
	case u.Scheme == "https" && u.Host != "":
		return "", false
	case u.Scheme == "http" && u.Host != "":
		return fmt.Sprintf("%q is not https: a password form should be served over https", s), true
	}
	return fmt.Sprintf("%q is neither a path of the site (/account/password) nor an absolute https URL", s), false
}

// RenderAtprotoDID returns the bytes of atproto-did: the DID, nothing more.
func RenderAtprotoDID(did string) []byte { return []byte(did) }
