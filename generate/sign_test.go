package generate

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/discgen/discgen/cleartext"
)

const signedSite = `version: 1
site: {url: "https://www.example.org/"}
well_known:
  security_txt:
    contact: mailto:security@example.org
    expires: 180d
    sign: {key_env: SECURITY_TXT_KEY}
`

// TestSignFromEnvironment signs with a key read from the environment:
// the same key, manifest and time give the same bytes, and the key never
// reaches a message.
func TestSignFromEnvironment(t *testing.T) {
	key, err := os.ReadFile("../cleartext/testdata/ed25519.key")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := os.ReadFile("../cleartext/testdata/ed25519.pub")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"SECURITY_TXT_KEY": string(key)}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	render := func() []byte {
		t.Helper()
		tr, errs := Site(load(t, signedSite), Options{Now: now, LookupEnv: lookup})
		if errs.HasErrors() {
			t.Fatal(errs)
		}
		return tr[".well-known/security.txt"].Data
	}
	a, b := render(), render()
	if !bytes.Equal(a, b) {
		t.Fatalf("two builds differ:\n%s\n%s", a, b)
	}
	sig, err := cleartext.Verify(a, pub, now)
	if err != nil {
		t.Fatalf("verify: %v\n%s", err, a)
	}
	if !sig.Created.Equal(now) {
		t.Errorf("signature made at %v, want --now %v", sig.Created, now)
	}

	delete(env, "SECURITY_TXT_KEY")
	_, errs := Site(load(t, signedSite), Options{Now: now, LookupEnv: lookup})
	if got := errs.Errors(); len(got) != 1 || !strings.HasPrefix(got[0].String(), "site.yaml:7:21: well_known.security_txt.sign.key_env: environment variable SECURITY_TXT_KEY is not set") {
		t.Errorf("unset variable: %v", got)
	}

	// An encrypted key: refused with a hint, and no key bytes in the message.
	enc, err := os.ReadFile("../cleartext/testdata/passphrase.key")
	if err != nil {
		t.Fatal(err)
	}
	env["SECURITY_TXT_KEY"] = string(enc)
	_, errs = Site(load(t, signedSite), Options{Now: now, LookupEnv: lookup})
	msg := fmt.Sprint(errs.Errors())
	if !strings.Contains(msg, "passphrase") || strings.Contains(msg, "BEGIN PGP") || strings.Contains(msg, strings.Split(string(enc), "\n")[2]) {
		t.Errorf("encrypted key: %s", msg)
	}
}
