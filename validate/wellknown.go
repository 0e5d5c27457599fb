package validate

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/internal/rfc8615"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/registry"
	"github.com/discgen/discgen/manifest"
)

// seenFirst is the kind's file that wellKnown counts among the names of
// well_known.files, so that an entry naming it too is "defined twice"
// (kinds leaves it out of its own check).
const seenFirst = "security.txt"

func (v *checker) wellKnown(p string, m *manifest.Site) {
	wk := m.WellKnown
	seen := map[string]string{}
	for _, k := range registry.All() {
		if k.Path() == ".well-known/"+seenFirst && k.Given(m) {
			seen[seenFirst] = v.pos.Of(k.Key()).String()
		}
		// The fields of a kind's value are checked with the other kinds
		// (kinds); its sign block here.
		if sg, ok := k.(kit.Signer); ok {
			if g := sg.Signing(m); g != nil {
				v.sign(manifest.Key(k.Key(), kit.SignField), g)
			}
		}
	}
	// dirs maps each directory a name implies ("matrix" for
	// "matrix/server") to the position of the first name implying it.
	dirs := map[string]string{}
	for i, f := range wk.Files {
		fp := manifest.Index(manifest.Key(p, "files"), i)
		np := manifest.Key(fp, "name")
		file, err := rfc8615.FileName(f.Name)
		if err != nil {
			v.err(np, "%v", err)
			continue
		}
		// Names that differ only in escapes ("gpc%2Ejson") are one file.
		if first, dup := seen[file]; dup {
			v.err(np, "%q is defined twice (first at %s)", f.Name, first)
			continue
		}
		// A name cannot be a file and a directory at once: "a" and "a/b".
		if first, isDir := dirs[file]; isDir {
			v.err(np, "%q names a file, but a name at %s needs %s to be a directory", f.Name, first, file)
			continue
		}
		clash := false
		for d := path.Dir(file); d != "." && !clash; d = path.Dir(d) {
			if first, isFile := seen[d]; isFile {
				v.err(np, "%q needs %s to be a directory, but it is a file (defined at %s)", f.Name, d, first)
				clash = true
			}
		}
		if clash {
			continue
		}
		here := v.pos.Of(np).String()
		seen[file] = here
		for d := path.Dir(file); d != "."; d = path.Dir(d) {
			if _, ok := dirs[d]; !ok {
				dirs[d] = here
			}
		}
		if !rfc8615.Registered(f.Name) {
			v.warn(np, "%q is not in the IANA well-known URI registry (copy of %s)", rfc8615.FirstSegment(f.Name), rfc8615.RegistryDate())
		}
		if f.Source != "" {
			v.localPath(manifest.Key(fp, "source"), f.Source)
		}
		v.wellKnownSchema(fp, f)
		v.entryName(np, f.Name)
	}
}

// sign checks a sign block at gp (kit.Signer): one of its key_env and
// key_file, an environment variable's name or a file inside the
// manifest's directory.
func (v *checker) sign(gp string, g *manifest.Sign) {
	switch {
	case (g.KeyEnv == "") == (g.KeyFile == ""):
		v.err(gp, "give exactly one of key_env and key_file")
	case g.KeyEnv != "" && !envName.MatchString(g.KeyEnv):
		v.err(manifest.Key(gp, "key_env"), "%q is not an environment variable name (letters, digits and \"_\", not starting with a digit)", g.KeyEnv)
	case g.KeyFile != "":
		v.localPath(manifest.Key(gp, "key_file"), g.KeyFile)
	}
}

var envName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// localPath checks a file path a manifest reads (source, key_file): relative
// to the manifest and inside its directory. Generation reads it through an
// os.Root, which also stops symbolic links leading out; this check names
// the mistakes a reader can see in the manifest itself.
func (v *checker) localPath(p, s string) {
	segs := strings.Split(strings.ReplaceAll(s, "\\", "/"), "/")
	switch {
	case strings.ContainsRune(s, 0) || s != strings.TrimSpace(s):
		v.err(p, "%q is not a usable file path", s)
	case strings.HasPrefix(s, "/") || strings.HasPrefix(s, "\\") || filepath.IsAbs(s) || driveLetter(s):
		v.err(p, "%q is an absolute path; give a path relative to the manifest, inside its directory", s)
	case slices.Contains(segs, ".."):
		v.err(p, "%q leaves the manifest's directory through \"..\"; files a manifest reads must be inside it", s)
	}
}

// driveLetter reports a Windows drive path such as C:\x or C:/x.
func driveLetter(s string) bool {
	return len(s) > 2 && s[1] == ':' && (s[2] == '/' || s[2] == '\\') &&
		('a' <= s[0] && s[0] <= 'z' || 'A' <= s[0] && s[0] <= 'Z')
}
