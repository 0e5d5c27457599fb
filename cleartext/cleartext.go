// Package cleartext makes and checks OpenPGP cleartext signatures (RFC 4880
// section 7, kept in RFC 9580 section 7), the form RFC 9116 section 2.3
// recommends for a signed security.txt.
//
// Signing is deterministic: the same text, key and time give the same
// bytes, so a build that signs keeps the guarantee that the same manifest
// and --now give the same output. Three things make it so:
//
//   - the signature's creation time is the time given (the build's --now),
//     never the clock;
//   - only key types whose signatures are a function of key and message are
//     accepted: EdDSA (Ed25519, Ed448; RFC 8032 signing is deterministic) and
//     RSA (PKCS #1 v1.5 signing is deterministic). ECDSA and DSA draw a
//     random nonce for every signature, and version 6 keys (RFC 9580) hash
//     a random salt into every signature, so these are refused;
//   - the random salt notation some implementations add to version 4
//     signatures is turned off, and the library is given a source of
//     randomness that fails, so any use of randomness the checks above did
//     not foresee is an error, not a different signature.
//
// Keys are read from their ASCII-armored form and never appear in an error.
package cleartext

import (
	"bytes"
	"crypto"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/clearsign"
	pgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// Hash is the digest every signature uses. Every key type Sign accepts
// allows SHA-512.
const Hash = crypto.SHA512

// KeyError is a key that cannot sign: unreadable, encrypted, of a type
// whose signatures are not deterministic, or with no signing key valid at
// the signing time. Hint, when not empty, says what to do instead.
type KeyError struct {
	Msg  string
	Hint string
}

func (e *KeyError) Error() string { return e.Msg }

// ErrNotSigned is returned by Verify for data holding no cleartext
// signature.
var ErrNotSigned = errors.New("not an OpenPGP cleartext-signed file (no -----BEGIN PGP SIGNED MESSAGE----- line)")

// errNoRandom is what the library gets if it asks for randomness.
var errNoRandom = errors.New("signing asked for randomness, which would make the signature differ from build to build")

type noRandom struct{}

func (noRandom) Read([]byte) (int, error) { return 0, errNoRandom }

// Sign returns text with an OpenPGP cleartext signature made at now with
// the signing key of armoredKey, an ASCII-armored private key (the output
// of gpg --armor --export-secret-keys). A final line break of text becomes
// the line break before the signature, as GnuPG writes it.
func Sign(text, armoredKey []byte, now time.Time) ([]byte, error) {
	key, err := signingKey(armoredKey, now)
	if err != nil {
		return nil, err
	}
	deterministic := false
	cfg := &packet.Config{
		DefaultHash:                           Hash,
		Time:                                  func() time.Time { return now },
		Rand:                                  noRandom{},
		NonDeterministicSignaturesViaNotation: &deterministic,
	}
	var out bytes.Buffer
	w, err := clearsign.Encode(&out, key, cfg)
	if err != nil {
		return nil, fmt.Errorf("cannot sign: %v", err)
	}
	if _, err := w.Write(bytes.TrimSuffix(text, []byte("\n"))); err != nil {
		return nil, fmt.Errorf("cannot sign: %v", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("cannot sign: %v", err)
	}
	out.WriteByte('\n') // the armor ends without one; a text file ends with one
	return out.Bytes(), nil
}

// signingKey picks the key of armoredKey that signs at now and checks that
// it can sign deterministically.
func signingKey(armoredKey []byte, now time.Time) (*packet.PrivateKey, error) {
	if !bytes.Contains(armoredKey, []byte("-----BEGIN PGP PRIVATE KEY BLOCK-----")) {
		hint := "export it with: gpg --armor --export-secret-keys KEYID"
		if bytes.Contains(armoredKey, []byte("-----BEGIN PGP PUBLIC KEY BLOCK-----")) {
			return nil, &KeyError{"the key is a public key; signing needs the private key", hint}
		}
		return nil, &KeyError{"the key is not an ASCII-armored OpenPGP private key (-----BEGIN PGP PRIVATE KEY BLOCK-----)", hint}
	}
	el, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(armoredKey))
	if err != nil {
		return nil, &KeyError{Msg: "cannot read the OpenPGP private key: " + cleanErr(err)}
	}
	var withPrivate []*openpgp.Entity
	for _, e := range el {
		if e.PrivateKey != nil {
			withPrivate = append(withPrivate, e)
		}
	}
	switch len(withPrivate) {
	case 0:
		return nil, &KeyError{"the key block holds no private key", "export it with: gpg --armor --export-secret-keys KEYID"}
	case 1:
	default:
		return nil, &KeyError{fmt.Sprintf("the key block holds %d private keys; give exactly one", len(withPrivate)), "export one key with: gpg --armor --export-secret-keys KEYID"}
	}
	e := withPrivate[0]
	k, ok := e.SigningKey(now)
	if !ok || k.PrivateKey == nil || k.PrivateKey.Dummy() {
		return nil, &KeyError{fmt.Sprintf("key %X has no signing key usable at %s (not yet created, expired, revoked, or its secret part not exported)",
			e.PrimaryKey.KeyId, now.UTC().Format(time.RFC3339)), ""}
	}
	pk := k.PrivateKey
	if pk.Encrypted {
		return nil, &KeyError{fmt.Sprintf("signing key %X is protected by a passphrase, which a build cannot type", pk.KeyId),
			"give a copy without a passphrase kept for signing, such as a signing subkey: gpg --export-secret-subkeys KEYID! after gpg --passwd"}
	}
	if pk.Version >= 6 {
		return nil, &KeyError{fmt.Sprintf("signing key %X is a version 6 (RFC 9580) key, whose signatures hash a random salt, so the file would change on every build", pk.KeyId),
			"use a version 4 Ed25519 or RSA signing key"}
	}
	switch pk.PubKeyAlgo {
	case packet.PubKeyAlgoEdDSA, packet.PubKeyAlgoEd25519, packet.PubKeyAlgoEd448,
		packet.PubKeyAlgoRSA, packet.PubKeyAlgoRSASignOnly:
		return pk, nil
	}
	return nil, &KeyError{fmt.Sprintf("signing key %X is %s, whose signatures use a random nonce, so the file would change on every build", pk.KeyId, algoName(pk.PubKeyAlgo)),
		"use an Ed25519 or RSA signing key (gpg --quick-add-key FINGERPRINT ed25519 sign)"}
}

func algoName(a packet.PublicKeyAlgorithm) string {
	switch a {
	case packet.PubKeyAlgoECDSA:
		return "ECDSA"
	case packet.PubKeyAlgoDSA:
		return "DSA"
	}
	return fmt.Sprintf("of public-key algorithm %d", a)
}

// Signature describes a verified signature.
type Signature struct {
	KeyID   uint64    // the key that made it
	Created time.Time // its creation time
	Text    []byte    // the signed text, dash-escaping removed
}

// VerifyError is a cleartext signature that does not verify.
type VerifyError struct{ Msg string }

func (e *VerifyError) Error() string { return e.Msg }

// Verify checks the first cleartext signature of signed against the public
// keys of pubKey (armored, or binary as gpg --export writes it), as of now.
// It returns ErrNotSigned when signed holds no cleartext signature, and a
// *VerifyError when the signature does not verify: another key made it,
// or the text or signature were changed.
func Verify(signed, pubKey []byte, now time.Time) (*Signature, error) {
	b, _ := clearsign.Decode(signed)
	if b == nil {
		return nil, ErrNotSigned
	}
	el, err := readKeyRing(pubKey)
	if err != nil {
		return nil, err
	}
	sig := issuer(b)
	cfg := &packet.Config{Time: func() time.Time { return now }}
	if _, err := b.VerifySignature(el, cfg); err != nil {
		switch {
		case errors.Is(err, pgperrors.ErrUnknownIssuer):
			who := "an unknown key"
			if sig != nil && sig.IssuerKeyId != nil {
				who = fmt.Sprintf("key %X", *sig.IssuerKeyId)
			}
			return nil, &VerifyError{fmt.Sprintf("the signature was made by %s, which is not in the public key file", who)}
		case isSignatureError(err):
			return nil, &VerifyError{"the signature does not match the signed text: the file was changed after signing, or the signature is damaged"}
		}
		return nil, &VerifyError{"the signature does not verify: " + cleanErr(err)}
	}
	out := &Signature{Text: b.Plaintext}
	if sig != nil {
		out.Created = sig.CreationTime
		if sig.IssuerKeyId != nil {
			out.KeyID = *sig.IssuerKeyId
		}
	}
	return out, nil
}

func isSignatureError(err error) bool {
	var se pgperrors.SignatureError
	return errors.As(err, &se) || errors.Is(err, pgperrors.ErrSignatureExpired)
}

// issuer returns the signature packet of b, or nil.
func issuer(b *clearsign.Block) *packet.Signature {
	if b.ArmoredSignature == nil {
		return nil
	}
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, b.ArmoredSignature.Body); err != nil {
		return nil
	}
	// Give the body back for VerifySignature to read.
	b.ArmoredSignature.Body = bytes.NewReader(buf.Bytes())
	p, err := packet.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		return nil
	}
	sig, _ := p.(*packet.Signature)
	return sig
}

func readKeyRing(pub []byte) (openpgp.EntityList, error) {
	var el openpgp.EntityList
	var err error
	if bytes.Contains(pub, []byte("-----BEGIN PGP")) {
		el, err = openpgp.ReadArmoredKeyRing(bytes.NewReader(pub))
	} else {
		el, err = openpgp.ReadKeyRing(bytes.NewReader(pub))
	}
	if err != nil {
		return nil, &KeyError{Msg: "cannot read the OpenPGP public key: " + cleanErr(err)}
	}
	if len(el) == 0 {
		return nil, &KeyError{Msg: "the public key file holds no key"}
	}
	return el, nil
}

// cleanErr is a library error without its "openpgp: " prefix.
func cleanErr(err error) string {
	return strings.TrimPrefix(err.Error(), "openpgp: ")
}
