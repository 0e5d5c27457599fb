package cleartext

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/testenv"
)

var (
	now  = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	text = []byte("# security.txt\nContact: mailto:security@example.org\n- a line that starts with a dash\nExpires: 2027-05-01T00:00:00Z\n")
)

func key(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSignIsDeterministic(t *testing.T) {
	for _, k := range []string{"ed25519", "rsa"} {
		t.Run(k, func(t *testing.T) {
			a, err := Sign(text, key(t, k+".key"), now)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Sign(text, key(t, k+".key"), now)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Fatalf("two signatures of the same text, key and time differ:\n%s\n%s", a, b)
			}
			c, err := Sign(text, key(t, k+".key"), now.Add(time.Second))
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(a, c) {
				t.Fatal("a signature made a second later is identical: the creation time is not the time given")
			}
			sig, err := Verify(a, key(t, k+".pub"), now)
			if err != nil {
				t.Fatal(err)
			}
			if !sig.Created.Equal(now) {
				t.Errorf("creation time %v, want %v", sig.Created, now)
			}
			if want := bytes.TrimSuffix(text, []byte("\n")); !bytes.Equal(sig.Text, want) {
				t.Errorf("signed text %q, want %q", sig.Text, want)
			}
		})
	}
}

func TestSignShape(t *testing.T) {
	out, err := Sign(text, key(t, "ed25519.key"), now)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{
		"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\n\n# security.txt\n",
		"\n- - a line that starts with a dash\n", // dash-escaped, RFC 4880 section 7.1
		"Expires: 2027-05-01T00:00:00Z\n-----BEGIN PGP SIGNATURE-----\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("signed file lacks %q:\n%s", want, s)
		}
	}
	if !strings.HasSuffix(s, "-----END PGP SIGNATURE-----\n") {
		t.Errorf("signed file does not end with the armor's end line:\n%s", s)
	}
}

func TestVerifyRefusesTamperedAndWrongKey(t *testing.T) {
	signed, err := Sign(text, key(t, "ed25519.key"), now)
	if err != nil {
		t.Fatal(err)
	}
	tampered := bytes.Replace(signed, []byte("security@"), []byte("attacker@"), 1)
	var ve *VerifyError
	if _, err := Verify(tampered, key(t, "ed25519.pub"), now); !errors.As(err, &ve) || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("tampered text: err = %v, want a VerifyError saying it does not match", err)
	}
	if _, err := Verify(signed, key(t, "rsa.pub"), now); !errors.As(err, &ve) || !strings.Contains(err.Error(), "not in the public key file") {
		t.Errorf("wrong key: err = %v, want a VerifyError naming the unknown key", err)
	}
	if _, err := Verify(text, key(t, "ed25519.pub"), now); !errors.Is(err, ErrNotSigned) {
		t.Errorf("unsigned text: err = %v, want ErrNotSigned", err)
	}
}

func TestSignRefusesKeys(t *testing.T) {
	for _, c := range []struct {
		key, want string
		hint      bool
	}{
		{"ecdsa.key", "random nonce", true},
		{"passphrase.key", "passphrase", true},
		{"ed25519.pub", "public key", true},
		{"", "not an ASCII-armored", true},
	} {
		data := []byte("garbage")
		if c.key != "" {
			data = key(t, c.key)
		}
		_, err := Sign(text, data, now)
		var ke *KeyError
		if !errors.As(err, &ke) || !strings.Contains(ke.Msg, c.want) || (c.hint && ke.Hint == "") {
			t.Errorf("%s: err = %#v, want a KeyError with a hint saying %q", c.key, err, c.want)
		}
	}
	// A key created after the signing time cannot have made the signature.
	_, err := Sign(text, key(t, "ed25519.key"), time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	var ke *KeyError
	if !errors.As(err, &ke) || !strings.Contains(ke.Msg, "no signing key usable") {
		t.Errorf("key newer than the time: err = %v", err)
	}
}

func TestErrorsHoldNoKeyMaterial(t *testing.T) {
	for _, name := range []string{"passphrase.key", "ecdsa.key", "ed25519.pub"} {
		k := key(t, name)
		// A damaged key too: the parser's error must not quote it.
		damaged := bytes.Replace(k, []byte("\n\n"), []byte("\n\n!!"), 1)
		for _, data := range [][]byte{k, damaged} {
			_, err := Sign(text, data, now)
			if err == nil {
				t.Fatalf("%s: signing succeeded", name)
			}
			var ke *KeyError
			errors.As(err, &ke)
			msg := err.Error()
			if ke != nil {
				msg += ke.Hint
			}
			for _, line := range strings.Split(string(k), "\n") {
				if len(line) >= 16 && !strings.HasPrefix(line, "-----") && strings.Contains(msg, line[:16]) {
					t.Errorf("%s: error %q quotes the key", name, msg)
				}
			}
		}
	}
}

// TestGnuPGVerifies checks discgen's signature with GnuPG itself.
func TestGnuPGVerifies(t *testing.T) {
	gpg := testenv.NeedsTool(t, "gpg", "apt-get install gnupg; .ci/run installs it")
	for _, k := range []string{"ed25519", "rsa"} {
		t.Run(k, func(t *testing.T) {
			home := t.TempDir()
			if err := os.Chmod(home, 0o700); err != nil {
				t.Fatal(err)
			}
			run := func(stdin []byte, args ...string) ([]byte, error) {
				cmd := exec.Command(gpg, append([]string{"--homedir", home, "--batch", "--no-tty", "--status-fd", "1"}, args...)...)
				cmd.Stdin = bytes.NewReader(stdin)
				return cmd.CombinedOutput()
			}
			if out, err := run(key(t, k+".pub"), "--import"); err != nil {
				t.Fatalf("gpg --import: %v\n%s", err, out)
			}
			signed, err := Sign(text, key(t, k+".key"), now)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(t.TempDir(), "security.txt")
			if err := os.WriteFile(file, signed, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := run(nil, "--verify", file)
			if err != nil || !strings.Contains(string(out), "[GNUPG:] GOODSIG") {
				t.Fatalf("gpg --verify: %v\n%s\n%s", err, out, signed)
			}
			tampered := bytes.Replace(signed, []byte("security@"), []byte("attacker@"), 1)
			if err := os.WriteFile(file, tampered, 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := run(nil, "--verify", file); err == nil || !strings.Contains(string(out), "BADSIG") {
				t.Fatalf("gpg --verify accepted a tampered file: %v\n%s", err, out)
			}
		})
	}
}
