package lint

import (
	"strings"
	"testing"
	"time"
)

const signedSecurityTxt = `-----BEGIN PGP SIGNED MESSAGE-----
Hash: SHA512

Contact: mailto:security@example.org
Expires: 2027-06-01T00:00:00Z
-----BEGIN PGP SIGNATURE-----

iQ==
-----END PGP SIGNATURE-----
`

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		name, data string
		want       Kind
	}{
		{"sec.txt", signedSecurityTxt, SecurityTxt},
		{"sec.txt", "\ufeffContact: mailto:a@example.org\nExpires: 2027-06-01T00:00:00Z\n", SecurityTxt},
		{"robots.txt", "Contact: mailto:a@example.org\nExpires: 2027-06-01T00:00:00Z\n", SecurityTxt},
		{"security.txt", "User-agent: *\nDisallow: /\n", Robots},
		{"staging", "user-agent: *\ndisallow: /private/\n", Robots},
		{"staging", "# nothing here\n", Robots},
		{"security.txt", "# nothing here\n", SecurityTxt},
		{"x/security.txt", "Policy: https://example.org/p\nUser-agent: *\n", SecurityTxt},
		// Every field robots.Lint knows is a robots.txt line.
		{"security.txt", "Clean-param: ref /articles/\n", Robots},
		{"security.txt", "Request-rate: 1/5\nVisit-time: 0600-0845\n", Robots},
		// Autodisc files are known by name, whatever they hold.
		{"autodisc/feeds.txt", "User-agent: *\nDisallow: /\n", Feeds},
		{"index.txt", "Contact: x\n", Index},
	} {
		if got := Detect(c.name, []byte(c.data)); got != c.want {
			t.Errorf("Detect(%q, %q) = %s, want %s", c.name, c.data, got, c.want)
		}
	}
}

// A signed security.txt saved under another name is linted as one: no
// robots.txt findings (R001 unknown directive for every field).
func TestSignedSecurityTxtByContent(t *testing.T) {
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	ds := File([]byte(signedSecurityTxt), Detect("sec.txt", []byte(signedSecurityTxt)), Options{Now: now})
	for _, d := range ds {
		if strings.HasPrefix(d.Code, "R") {
			t.Errorf("linted as robots.txt: %v", d)
		}
	}
	if len(ds) == 0 || ds[0].Code != "S004" {
		t.Errorf("want the S004 unchecked-signature warning first, got %v", ds)
	}
}

func TestMismatch(t *testing.T) {
	if _, ok := Mismatch("sec.txt", SecurityTxt); ok {
		t.Error("a name that is neither robots.txt nor security.txt warned")
	}
	if _, ok := Mismatch("public/robots.txt", Robots); ok {
		t.Error("a robots.txt read as one warned")
	}
	d, ok := Mismatch("public/robots.txt", SecurityTxt)
	if !ok || !strings.Contains(d.Message, "named robots.txt but reads as security.txt") {
		t.Errorf("Mismatch = %v, %v", d, ok)
	}
}

func TestParseKind(t *testing.T) {
	for _, k := range Kinds() {
		if got, ok := ParseKind(string(k)); !ok || got != k {
			t.Errorf("ParseKind(%q) = %q, %v", k, got, ok)
		}
	}
	if _, ok := ParseKind("robots"); ok {
		t.Error(`ParseKind("robots") accepted`)
	}
}
