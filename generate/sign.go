package generate

import (
	"errors"
	"fmt"
	"os"

	"github.com/discgen/discgen/cleartext"
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
)

// sign returns security.txt signed as s, the sign block at manifest path
// sp (kit.Signer), says (RFC 9116 section 2.3), or data as it is when s
// is nil. The signature's time is opt.Now, so the bytes depend only on
// the key, the manifest and --now (see package cleartext). No message
// holds any of the key.
func sign(data []byte, s *manifest.Sign, sp string, opt Options, md *manifestDir, pos *manifest.Positions) ([]byte, *diag.Diagnostic) {
	if s == nil {
		return data, nil
	}
	fail := func(path, format string, args ...any) *diag.Diagnostic {
		return &diag.Diagnostic{Pos: pos.Of(path), Severity: diag.Error, Path: path, Message: fmt.Sprintf(format, args...)}
	}
	var key []byte
	var from, path string
	switch {
	case s.KeyEnv != "":
		path = sp + ".key_env"
		lookup := opt.LookupEnv
		if lookup == nil {
			lookup = os.LookupEnv
		}
		v, ok := lookup(s.KeyEnv)
		if !ok || v == "" {
			return nil, fail(path, "environment variable %s is not set; it must hold the ASCII-armored private key (gpg --armor --export-secret-keys KEYID)", s.KeyEnv)
		}
		key, from = []byte(v), "the key in $"+s.KeyEnv
	case s.KeyFile != "":
		path = sp + ".key_file"
		var err error
		if key, err = md.read(s.KeyFile, MaxKeyBytes); err != nil {
			return nil, fail(path, "cannot read %q: %v", s.KeyFile, err)
		}
		from = "the key in " + s.KeyFile
	default:
		return nil, fail(sp, "give key_env or key_file")
	}
	signed, err := cleartext.Sign(data, key, opt.Now)
	if err != nil {
		var ke *cleartext.KeyError
		if errors.As(err, &ke) && ke.Hint != "" {
			return nil, fail(path, "%s: %s; %s", from, ke.Msg, ke.Hint)
		}
		return nil, fail(path, "%s: %v", from, err)
	}
	return signed, nil
}
