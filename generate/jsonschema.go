package generate

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"path"
	"path/filepath"
	"slices"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/registry"
	"github.com/discgen/discgen/manifest"
)

// schemas holds the schema files a build has compiled, by path, and the
// verdicts an earlier build kept (Options.Verdicts).
type schemas struct {
	compiled map[string]*kit.Schema
	texts    map[string][]byte // user schemas read, by path: read once a build
	verdicts Verdicts
}

// Verdicts keeps, from one build of a site to the next, which well-known
// files were found valid against their schemas, so that a file that did
// not change is not checked again: checking compiles its schema, and the
// A2A card's takes 1–4 ms, more than the rest of a small site's build.
// A key (see verdictKey) covers the schema's name and its text (or, for a
// shipped one, its version) and the file's bytes; the store is told the
// discgen version it serves. publish keeps them in the site's state
// directory; a tenant's files are always checked.
type Verdicts interface {
	Valid(key string) bool
	Add(key string)
}

// verdictKey is the key of a verdict: what the check of data against
// the schema name (resolved: a shipped schema's version) depends on,
// hashed. text is a user schema's, nil for a shipped one.
func verdictKey(name string, text, data []byte) string {
	h := sha256.New()
	for _, b := range [][]byte{[]byte(name), text, data} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// checkSchema validates the content of well-known file f (data) against
// its schema, or against the one its name implies (agent-card.json).
// Each problem is at its line and column: in the source file, or in the
// manifest where the content is inline (exactly when it is a literal
// block scalar, at the value otherwise). A file an earlier build found
// valid, unchanged with its schema, is not checked again (Verdicts).
func checkSchema(pos *manifest.Positions, fp string, f manifest.WellKnownFile, data []byte, md *manifestDir, sc *schemas) diag.List {
	var errs diag.List
	name := f.Schema
	if name == "" {
		name = defaultSchema(f.Name)
	}
	if name == "" {
		return nil
	}
	sp := manifest.Key(fp, "schema")
	sh := shipperOf(name)
	resolved := name
	var text []byte // a user schema's
	if sh != nil {
		resolved = sh.ResolveSchema(name, data)
	} else if text = sc.texts[name]; text == nil {
		var err error
		if text, err = md.read(name, kit.MaxSchemaBytes); err != nil {
			errs.Errorf(pos.Of(sp), sp, "cannot read %q: %v", name, err)
			return errs
		}
		sc.texts[name] = text
	}
	key := ""
	if sc.verdicts != nil {
		key = verdictKey(resolved, text, data)
		if sc.verdicts.Valid(key) {
			return nil
		}
	}
	var s *kit.Schema
	about := name
	if sh != nil {
		var err error
		var what string
		if s, what, err = sh.ShippedSchema(resolved); err != nil {
			errs.Errorf(pos.Of(sp), sp, "schema %s: %v", name, err)
			return errs
		}
		about = name + ", " + what
	} else if s = sc.compiled[name]; s == nil {
		var err error
		if s, err = kit.CompileSchema(name, text); err != nil {
			errs.Errorf(pos.Of(sp), sp, "%s: %v", name, err)
			return errs
		}
		sc.compiled[name] = s
	}
	content := manifest.Key(fp, "content")
	problems, err := kit.ValidateJSON(data, s)
	if err != nil {
		errs.Errorf(pos.Of(sp), sp, "%s: %v", name, err)
		return errs
	}
	for _, p := range problems {
		var at diag.Pos
		where := manifest.Key(fp, "source")
		if f.Content != nil {
			at = pos.InValue(content, *f.Content, p.Offset)
			where = content
		} else {
			at = diag.Pos{File: sourcePath(pos.File, f.Source), Line: p.Line, Col: p.Col}
		}
		msg := p.Message
		if p.Pointer != "" {
			msg = p.Pointer + ": " + msg
		}
		errs.Errorf(at, where, "%s (schema %s)", msg, about)
	}
	if key != "" && len(errs) == 0 {
		sc.verdicts.Add(key)
	}
	return errs
}

// shipperOf returns the kind of the registry that ships the schema name
// (kit.SchemaShipper), nil for a schema file the manifest names.
func shipperOf(name string) kit.SchemaShipper {
	for _, k := range registry.All() {
		if sh, ok := k.(kit.SchemaShipper); ok && slices.Contains(sh.Schemas(), name) {
			return sh
		}
	}
	return nil
}

// defaultSchema returns the shipped schema a well-known file of this name
// is checked against when its entry names none (an agent card's), "" for
// none.
func defaultSchema(name string) string {
	for _, k := range registry.All() {
		if sh, ok := k.(kit.SchemaShipper); ok {
			if s := sh.DefaultSchema(name); s != "" {
				return s
			}
		}
	}
	return ""
}

// sourcePath names a source file as the manifest's name does: relative
// to the same directory.
func sourcePath(manifestFile, source string) string {
	if manifestFile == "" {
		return source
	}
	return path.Join(path.Dir(filepath.ToSlash(manifestFile)), source)
}
