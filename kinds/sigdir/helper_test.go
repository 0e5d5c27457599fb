package sigdir

import (
	"crypto/sha256"
	"encoding/base64"
)

// sha256b64 is the thumbprint of a canonical JSON text written out by a
// test, independent of Thumbprint's own serialization.
func sha256b64(s string) string {
	sum := sha256.Sum256([]byte(s))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}
