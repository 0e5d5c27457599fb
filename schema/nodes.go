package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math/big"
)

//go:generate go test -run ^TestGeneratedNodes$ -update

// The embedded document compiles to the same nodes at every start, so
// they are compiled once, when the schema changes, into Go source
// (nodes_gen.go, written by `go generate` from compile's own result):
// a build then makes the nodes without decoding 21 KB of JSON. The
// generated nodes are used only while the document is the one they were
// generated from (generatedSum); a schema edited without `go generate`
// is compiled at first use as before, and TestGeneratedNodes fails until
// the file is made again.

// compiledNodes returns the site's and the tenant's schema nodes.
func compiledNodes() ([]*node, error) {
	if sum := sha256.Sum256(source); hex.EncodeToString(sum[:]) == generatedSum {
		return generatedNodes(), nil
	}
	return compile(source, "", "/$defs/tenant")
}

// Helpers of the generated source.

func num(s string) json.Number { return json.Number(s) }

func ratOf(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("schema: generated number " + s)
	}
	return r
}

func boolp(b bool) *bool { return &b }
