package sigdir

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/kinds/kit"
)

func read(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func texts(ps []kit.JSONProblem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

// TestRFC7638Example: the RSA key of RFC 7638 section 3.1 has the
// thumbprint the RFC gives, NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs:
// as its kid it passes the thumbprint check, and any other kid is refused
// with that value. Being a published example, the key itself is refused
// as a test key.
func TestRFC7638Example(t *testing.T) {
	data := read(t, "rfc7638-rsa.json")
	testKey := "3:5: /keys/0: the key is a published test key (RFC 7517 appendix A.1 and RFC 7638 section 3.1): its private half is public, and verifiers reject it; generate a key of your own\n"
	if got := texts(CheckDirectory(data)); got != testKey {
		t.Fatalf("RFC 7638's key: got\n%swant\n%s", got, testKey)
	}
	bad := strings.Replace(string(data), `"NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"`, `"2011-04-29"`, 1)
	want := testKey + `8:14: /keys/0/kid: kid "2011-04-29" is not the key's RFC 7638 thumbprint "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"` + "\n"
	if got := texts(CheckDirectory([]byte(bad))); got != want {
		t.Fatalf("got\n%swant\n%s", got, want)
	}
}

// TestDraftExample: the Ed25519 key of the draft's example directory, as
// the draft prints it, has a kid that is not its thumbprint (RFC 7638
// gives poqkLG..., the keyid the protocol draft signs with), and is RFC
// 9421's test key. RFC 9421's P-256 test key, its coordinates taken from
// the RFC's PEM, is refused too: its thumbprint here is the one computed
// apart from this package.
func TestDraftExample(t *testing.T) {
	data := read(t, "draft-ed25519.json")
	want := "2:12: /keys/0: the key is a published test key (RFC 9421 appendix B.1.4, test-key-ed25519): its private half is public, and verifiers reject it; generate a key of your own\n" +
		`5:12: /keys/0/kid: kid "NFcWBst6DXG-N35nHdzMrioWntdzNZghQSkjHNMMSjw" is not the key's RFC 7638 thumbprint "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"` + "\n"
	if got := texts(CheckDirectory(data)); got != want {
		t.Fatalf("the draft's key: got\n%swant\n%s", got, want)
	}
	ec := `{"keys": [{"kty": "EC", "crv": "P-256", "x": "qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA", "y": "Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0", "kid": "ydQXMtvbsOsZyFir-Y7A8t7fKEM1gbKPvyFkdpu4fvI"}]}`
	want = "1:11: /keys/0: the key is a published test key (RFC 9421 appendix B.1.3, test-key-ecc-p256): its private half is public, and verifiers reject it; generate a key of your own\n"
	if got := texts(CheckDirectory([]byte(ec))); got != want {
		t.Fatalf("RFC 9421's P-256 key: got\n%swant\n%s", got, want)
	}
}

// TestExpiry: a key's exp (2024-05-11) judged against the build's time:
// no finding well before, a warning within 30 days, an error once passed;
// without a time, no finding.
func TestExpiry(t *testing.T) {
	doc, _ := edKey(t, "", ",\n   \"nbf\": 1712793600, \"exp\": 1715385600")
	data := []byte(doc)
	for _, c := range []struct {
		now  time.Time
		want string
	}{
		{time.Time{}, ""},
		{time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), ""},
		{time.Date(2024, 4, 20, 0, 0, 0, 0, time.UTC), `3:30: /keys/0/exp: warning: the key expires at 2024-05-11T00:00:00Z (exp), less than 30 days away: publish its successor` + "\n"},
		{time.Date(2024, 5, 11, 0, 0, 0, 0, time.UTC), `3:30: /keys/0/exp: the key expired at 2024-05-11T00:00:00Z (exp; now is 2024-05-11T00:00:00Z): remove it, or publish a new key and drop this one` + "\n"},
	} {
		if got := texts(CheckDirectoryAt(data, c.now)); got != c.want {
			t.Errorf("at %s: got\n%swant\n%s", c.now, got, c.want)
		}
	}
}

// edKey returns a key set of one freshly generated Ed25519 public key,
// its kid computed here from RFC 7638's rule written out, and extra
// members appended.
func edKey(t *testing.T, kid string, extra string) (string, string) {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	x := base64.RawURLEncoding.EncodeToString(pub)
	canonical := fmt.Sprintf(`{"crv":"Ed25519","kty":"OKP","x":"%s"}`, x)
	want := sha256b64(canonical)
	if kid == "" {
		kid = want
	}
	return fmt.Sprintf("{\"keys\": [\n  {\"kty\": \"OKP\", \"crv\": \"Ed25519\", \"x\": %q, \"kid\": %q%s}\n]}\n", x, kid, extra), want
}

func TestGeneratedEd25519(t *testing.T) {
	doc, _ := edKey(t, "", "")
	if ps := CheckDirectory([]byte(doc)); len(ps) != 0 {
		t.Fatalf("%s: %s", doc, texts(ps))
	}
	doc, want := edKey(t, "my-bot-2026", "")
	ps := CheckDirectory([]byte(doc))
	if len(ps) != 1 || ps[0].Pointer != "/keys/0/kid" || !strings.Contains(ps[0].Message, want) || ps[0].Line != 2 {
		t.Fatalf("a kid that is not the thumbprint: %s", texts(ps))
	}
}

// TestPrivateMembers: each private member is refused at its own line and
// column.
func TestPrivateMembers(t *testing.T) {
	for _, m := range privateMembers {
		doc, _ := edKey(t, "", fmt.Sprintf(",\n   %q: \"AAAA\"", m))
		ps := CheckDirectory([]byte(doc))
		want := fmt.Sprintf("3:%d: /keys/0/%s: %q is a private key member", 8+len(m), m, m)
		if len(ps) != 1 || !strings.HasPrefix(ps[0].String(), want) {
			t.Errorf("%s: got\n%swant %s", m, texts(ps), want)
		}
	}
}

func TestShape(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{`[]`, "1:1: the directory must be a JSON Web Key Set"},
		{`{}`, "1:1: keys is required"},
		{`{"keys": {}}`, "1:10: /keys: keys must be a list of keys, not an object"},
		{`{"keys": []}`, "1:10: /keys: keys is empty"},
		{`{"keys": [{"kty": "oct", "k": "AAAA", "kid": "x"}]}`, "1:19: /keys/0/kty: kty must be OKP (Ed25519), EC (P-256, P-384) or RSA, not \"oct\"\n1:31: /keys/0/k: \"k\" is a private key member"},
		{`{"keys": [{"kty": "OKP", "crv": "X25519", "x": "AAAA", "kid": "x"}]}`, `1:33: /keys/0/crv: crv must be Ed25519 for a key of type OKP, not "X25519"`},
		{`{"keys": [{"kty": "EC", "crv": "P-256", "x": "AAAA", "kid": "x"}]}`, "1:11: /keys/0: y is required for a key of type EC\n1:46: /keys/0/x: x is 3 bytes; a P-256 coordinate is 32"},
		{`{"keys": [{"kty": "RSA", "n": "AA==", "e": 65537, "kid": "x"}]}`, "1:31: /keys/0/n: n is not base64url without padding (RFC 7515 section 2)\n1:44: /keys/0/e: e must be a base64url string, not a number"},
		{`{"keys": [{"kty": "RSA", "n": "AQAB", "e": "AQAB"}]}`, "1:11: /keys/0: kid is required: the key's RFC 7638 thumbprint, \""},
		{`{"keys": [{"kty": "RSA", "n": "AQAB", "e": "AQAB", "kid": "fFSIqACAdZT1hI1UKd3RlrMVpjTald1WwlJtBezXa88", "use": "enc", "nbf": 20, "exp": 10}]}`, "1:113: /keys/0/use: use must be \"sig\" (a signing key), not \"enc\"\n1:127: /keys/0/nbf: nbf 1970-01-01T00:00:20Z is not before exp 1970-01-01T00:00:10Z"},
		{`{"keys": [{"kty": "RSA", "n": "AQAB", "e": "AQAB", "kid": "fFSIqACAdZT1hI1UKd3RlrMVpjTald1WwlJtBezXa88", "exp": "2027"}, 1]}`, "1:113: /keys/0/exp: exp must be a NumericDate, a number of seconds since 1970 (RFC 7519 section 2), not a string\n1:122: /keys/1: must be an object, not a number"},
		{`{"keys": [{"kty": "RSA", "n": "AQAB", "e": "AQAB", "kid": "fFSIqACAdZT1hI1UKd3RlrMVpjTald1WwlJtBezXa88"}, {"kty": "RSA", "n": "AQAB", "e": "AQAB", "kid": "fFSIqACAdZT1hI1UKd3RlrMVpjTald1WwlJtBezXa88"}]}`, `1:155: /keys/1/kid: kid "fFSIqACAdZT1hI1UKd3RlrMVpjTald1WwlJtBezXa88" is also key 0's: a key is published once`},
		{`{"keys": [`, "1:11: not JSON"},
	} {
		got := strings.TrimSuffix(texts(CheckDirectory([]byte(c.doc))), "\n")
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s:\ngot  %s\nwant %s", c.doc, got, c.want)
		}
	}
}

// TestLintAt: lint judges the dates against the time it is given, and
// Lint alone leaves them.
func TestLintAt(t *testing.T) {
	doc, _ := edKey(t, "", ",\n   \"exp\": 1715385600")
	data := []byte(doc)
	if ds := Directory().Lint(data); len(ds) != 0 {
		t.Fatalf("Lint: %v", ds)
	}
	ds := Directory().LintAt(data, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	if len(ds) != 1 || ds[0].Line != 3 || ds[0].Code != kit.CodeJSON || !strings.Contains(ds[0].Message, "expired") {
		t.Fatalf("LintAt: %v", ds)
	}
}
