// Package sigdir is the kind of the HTTP Message Signatures Directory: the
// Web Bot Auth key directory of a site's own agents, the keys with which
// they sign their requests.
//
// It follows draft-meunier-webbotauth-httpsig-directory-00 (2026-06-26),
// with the protocol of draft-ietf-webbotauth-httpsig-protocol-01
// (2026-10-29) that reads it: the directory is a JSON Web Key Set (RFC
// 7517 section 5) served at /.well-known/http-message-signatures-directory
// with the media type application/http-message-signatures-directory+json,
// and a key is named by its JWK SHA-256 thumbprint (RFC 7638 section 3;
// RFC 8037 appendix A.3 for Ed25519), which a signature's keyid carries.
// A later draft is a change of this package alone.
//
// The directory draft's own example (appendix A, "Key Directory on
// example.com") gives its Ed25519 key the kid
// NFcWBst6DXG-N35nHdzMrioWntdzNZghQSkjHNMMSjw, which is not the key's
// thumbprint: RFC 7638 gives poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U,
// the keyid the protocol draft's examples sign with. discgen follows the
// rule, not the example, and says which kid it expects.
//
// The manifest's well_known.signatures_directory names the file, a JSON
// file relative to the manifest that discgen copies byte for byte once it
// passes CheckDirectory, each problem at its line and column there:
//
//   - the file is an object with keys, a non-empty list of objects;
//   - public keys only: a private member (d, p, q, dp, dq, qi, oth; k, a
//     symmetric key's secret) is refused at its place;
//   - kty is OKP (crv Ed25519 and x), EC (crv P-256 or P-384, x and y) or
//     RSA (n and e), the algorithms of the HTTP Signature Algorithms
//     registry; each of those members a base64url string without padding,
//     of its curve's length;
//   - kid is required and is the key's RFC 7638 thumbprint: the error
//     gives the value it must be; two keys may not share one. The
//     protocol draft lets a key at the well-known URI go without a kid
//     (it MAY carry one, which MUST then be the thumbprint); discgen
//     requires it, as verifiers select the key by matching a signature's
//     keyid against it;
//   - a published test key (RFC 9421 appendix B.1's Ed25519 and P-256
//     keys, RFC 7517 and RFC 7638's RSA example, known by their
//     thumbprints, testKeys) is refused: the protocol draft's "Test and
//     Demonstration Keys" says they must not be used in production and
//     that verifiers should reject them;
//   - use, when given, is "sig";
//   - exp and nbf, when given, are NumericDates (RFC 7519 section 2,
//     seconds since 1970), nbf before exp. Against the build's time
//     (--now; CheckDirectoryAt), a key whose exp has passed is an error
//     and one that expires within kit.ExpiresSoon (30 days, as
//     security.txt's Expires) a warning. A key whose nbf is still ahead is
//     no problem: the draft asks for the next key to be published before
//     it is used.
package sigdir

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/discgen/discgen/kinds/kit"
)

// MediaType is the media type the draft requires the directory be
// served with.
const MediaType = "application/http-message-signatures-directory+json"

// privateMembers are the JWK members that hold a private or secret key
// (RFC 7518 sections 6.2.2, 6.3.2 and 6.4.1).
var privateMembers = []string{"d", "p", "q", "dp", "dq", "qi", "oth", "k"}

// testKeys are the thumbprints of keys published with their private
// halves, for tests: RFC 9421 appendix B.1.3 and B.1.4 (computed from the
// RFC's public keys) and the RSA key of RFC 7517 appendix A.1, which RFC
// 7638 section 3.1 hashes.
var testKeys = map[string]string{
	"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U": "RFC 9421 appendix B.1.4, test-key-ed25519",
	"ydQXMtvbsOsZyFir-Y7A8t7fKEM1gbKPvyFkdpu4fvI": "RFC 9421 appendix B.1.3, test-key-ecc-p256",
	"NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs": "RFC 7517 appendix A.1 and RFC 7638 section 3.1",
}

// curveBytes is the length of a coordinate of each curve a key may use.
var curveBytes = map[string]map[string]int{
	"OKP": {"Ed25519": 32},
	"EC":  {"P-256": 32, "P-384": 48},
}

// CheckDirectory checks a directory by shape, without its dates against
// a time; see CheckDirectoryAt.
func CheckDirectory(data []byte) []kit.JSONProblem { return CheckDirectoryAt(data, time.Time{}) }

// CheckDirectoryAt checks a directory and returns its problems in
// document order; those whose Message starts with "warning: " do not stop
// a build. A zero now leaves the keys' dates unjudged.
func CheckDirectoryAt(data []byte, now time.Time) []kit.JSONProblem {
	c, v, bad := kit.ParseJSON(data)
	if bad != nil {
		return bad
	}
	top, ok := v.(map[string]any)
	if !ok {
		c.Add("", false, "the directory must be a JSON Web Key Set, an object with keys, not %s", kit.JSONKind(v))
		return c.Problems
	}
	raw, ok := top["keys"]
	if !ok {
		c.Add("", false, "keys is required: the list of the agents' public keys (RFC 7517 section 5)")
		return c.Sorted()
	}
	keys, ok := raw.([]any)
	switch {
	case !ok:
		c.Add("/keys", false, "keys must be a list of keys, not %s", kit.JSONKind(raw))
	case len(keys) == 0:
		c.Add("/keys", false, "keys is empty: the directory publishes at least one key")
	}
	kids := map[string]int{}
	for i, k := range keys {
		checkKey(c, i, k, now, kids)
	}
	return c.Sorted()
}

func checkKey(c *kit.JSONChecker, i int, v any, now time.Time, kids map[string]int) {
	p := fmt.Sprintf("/keys/%d", i)
	key, ok := c.Object(p, v)
	if !ok {
		return
	}
	for _, m := range privateMembers {
		if _, ok := key[m]; ok {
			c.Add(p+"/"+m, false, "%q is a private key member: the directory publishes public keys only; remove it, and replace the key if it was ever served", m)
		}
	}
	want, ok := thumbprint(c, p, key)
	if src, test := testKeys[want]; ok && test {
		c.Add(p, false, "the key is a published test key (%s): its private half is public, and verifiers reject it; generate a key of your own", src)
	}
	switch kid, has := key["kid"]; {
	case !has:
		if ok {
			c.Add(p, false, "kid is required: the key's RFC 7638 thumbprint, %q", want)
		} else {
			c.Add(p, false, "kid is required: the key's RFC 7638 thumbprint")
		}
	case !isString(kid):
		c.Add(p+"/kid", false, "kid must be a string, not %s", kit.JSONKind(kid))
	case ok && kid != want:
		c.Add(p+"/kid", false, "kid %s is not the key's RFC 7638 thumbprint %q", kit.JSONText(kid), want)
	default:
		s := kid.(string)
		if first, seen := kids[s]; seen {
			c.Add(p+"/kid", false, "kid %q is also key %d's: a key is published once", s, first)
		} else {
			kids[s] = i
		}
	}
	if use, ok := key["use"]; ok && use != "sig" {
		c.Add(p+"/use", false, "use must be \"sig\" (a signing key), not %s", kit.JSONText(use))
	}
	checkDates(c, p, key, now)
}

// thumbprint checks the key's type and required members and returns its
// RFC 7638 thumbprint; ok is false when a member is missing or bad.
func thumbprint(c *kit.JSONChecker, p string, key map[string]any) (string, bool) {
	kty, ok := key["kty"]
	if !ok {
		c.Add(p, false, "kty is required: OKP, EC or RSA")
		return "", false
	}
	var members []string // the required members, in lexicographic order (RFC 7638 section 3.2)
	switch kty {
	case "OKP":
		members = []string{"crv", "kty", "x"}
	case "EC":
		members = []string{"crv", "kty", "x", "y"}
	case "RSA":
		members = []string{"e", "kty", "n"}
	default:
		c.Add(p+"/kty", false, "kty must be OKP (Ed25519), EC (P-256, P-384) or RSA, not %s", kit.JSONText(kty))
		return "", false
	}
	ty := kty.(string)
	good := true
	size := 0
	if ty == "RSA" {
		// no curve
	} else if crv, has := key["crv"]; !has {
		c.Add(p, false, "crv is required for a key of type %s", ty)
		good = false
	} else if n, known := curveBytes[ty][asString(crv)]; !known {
		c.Add(p+"/crv", false, "crv must be %s for a key of type %s, not %s", curves(ty), ty, kit.JSONText(crv))
		good = false
	} else {
		size = n
	}
	for _, m := range members {
		if m == "kty" || m == "crv" {
			continue
		}
		v, has := key[m]
		if !has {
			c.Add(p, false, "%s is required for a key of type %s", m, ty)
			good = false
			continue
		}
		s, isStr := v.(string)
		b, err := base64.RawURLEncoding.Strict().DecodeString(s)
		switch {
		case !isStr:
			c.Add(p+"/"+m, false, "%s must be a base64url string, not %s", m, kit.JSONKind(v))
			good = false
		case err != nil || strings.ContainsAny(s, "\r\n"):
			c.Add(p+"/"+m, false, "%s is not base64url without padding (RFC 7515 section 2)", m)
			good = false
		case size > 0 && len(b) != size:
			c.Add(p+"/"+m, false, "%s is %d bytes; a %s coordinate is %d", m, len(b), asString(key["crv"]), size)
			good = false
		case len(b) == 0 || (m == "n" || m == "e") && b[0] == 0:
			c.Add(p+"/"+m, false, "%s must be an unsigned integer of at least one byte without leading zeros (RFC 7518 section 6.3.1)", m)
			good = false
		}
	}
	if !good {
		return "", false
	}
	return Thumbprint(key, members), true
}

// Thumbprint returns the RFC 7638 JWK SHA-256 thumbprint of key, base64url
// without padding: the hash of a JSON object of the required members,
// in lexicographic order, without white space. The values are checked
// strings.
func Thumbprint(key map[string]any, members []string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(m)
		val, _ := json.Marshal(key[m])
		b.Write(name)
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteByte('}')
	sum := sha256.Sum256([]byte(b.String()))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// checkDates checks nbf and exp, and exp against now unless it is zero.
func checkDates(c *kit.JSONChecker, p string, key map[string]any, now time.Time) {
	var at [2]time.Time
	var has [2]bool
	for i, m := range []string{"nbf", "exp"} {
		v, ok := key[m]
		if !ok {
			continue
		}
		t, err := numericDate(v)
		if err != "" {
			c.Add(p+"/"+m, false, "%s %s", m, err)
			continue
		}
		at[i], has[i] = t, true
	}
	if has[0] && has[1] && !at[0].Before(at[1]) {
		c.Add(p+"/nbf", false, "nbf %s is not before exp %s", stamp(at[0]), stamp(at[1]))
	}
	if !has[1] || now.IsZero() {
		return
	}
	exp, now := at[1], now.UTC()
	switch {
	case !exp.After(now):
		c.Add(p+"/exp", false, "the key expired at %s (exp; now is %s): remove it, or publish a new key and drop this one", stamp(exp), stamp(now))
	case exp.Before(now.Add(kit.ExpiresSoon)):
		c.Add(p+"/exp", true, "the key expires at %s (exp), less than %d days away: publish its successor", stamp(exp), int(kit.ExpiresSoon/(24*time.Hour)))
	}
}

// numericDate reads a NumericDate (RFC 7519 section 2): a JSON number of
// seconds since 1970-01-01T00:00:00Z, fractions allowed.
func numericDate(v any) (time.Time, string) {
	n, ok := v.(json.Number)
	if !ok {
		return time.Time{}, fmt.Sprintf("must be a NumericDate, a number of seconds since 1970 (RFC 7519 section 2), not %s", kit.JSONKind(v))
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || f < 0 || f > 1<<40 {
		return time.Time{}, fmt.Sprintf("%s is not a NumericDate: seconds since 1970, not negative", n)
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC(), ""
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func isString(v any) bool { _, ok := v.(string); return ok }

func asString(v any) string { s, _ := v.(string); return s }

func curves(kty string) string {
	var out []string
	for c := range curveBytes[kty] {
		out = append(out, c)
	}
	slices.Sort(out)
	return strings.Join(out, " or ")
}
