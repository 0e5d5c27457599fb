package publish

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/validate"
)

// pattern is a tenants glob split for a walk: a fixed directory the walk
// starts from, then one pattern per path component below it, the last
// naming the manifest file.
type pattern struct {
	raw    string   // as written in the manifest
	prefix string   // absolute, cleaned directory with no wildcard
	show   string   // prefix as messages show it (relative when the glob is)
	segs   []string // components below prefix; at least one
	stars  int      // number of '*' in segs
}

// isMeta reports whether a component holds a wildcard.
func isMeta(seg string) bool { return strings.ContainsAny(seg, "*?[") }

// parsePattern splits a tenants glob, relative to dir (the site
// manifest's directory) unless absolute. Only '*', '?' and '[...]' are
// supported, each within one component: '**' would walk whole trees of
// user files, and braces and escapes would make the capture of each '*'
// ambiguous.
func parsePattern(dir, raw string) (*pattern, error) {
	if raw == "" {
		return nil, errors.New("empty tenants glob")
	}
	if strings.ContainsAny(raw, "{}\\") {
		return nil, fmt.Errorf("%q: braces and backslash escapes are not supported in a tenants glob; use '*', '?' and '[...]' within one path component", raw)
	}
	full := raw
	if !filepath.IsAbs(raw) {
		full = filepath.Join(dir, raw)
	}
	slash := filepath.ToSlash(filepath.Clean(full))
	parts := strings.Split(slash, "/")
	fixed := 0
	for fixed < len(parts)-1 && !isMeta(parts[fixed]) {
		fixed++
	}
	p := &pattern{raw: raw, segs: parts[fixed:]}
	for _, s := range p.segs {
		if strings.Contains(s, "**") {
			return nil, fmt.Errorf("%q: '**' is not supported in a tenants glob: it would walk every user's whole tree; name each level with '*'", raw)
		}
		if s == "" || s == "." || s == ".." {
			return nil, fmt.Errorf("%q: empty, '.' or '..' component after a wildcard", raw)
		}
		if _, err := path.Match(s, ""); err != nil {
			return nil, fmt.Errorf("%q: %v", raw, err)
		}
		p.stars += strings.Count(s, "*")
	}
	show := strings.Join(parts[:fixed], "/")
	if show == "" {
		show = "/"
	}
	p.show = filepath.FromSlash(show)
	abs, err := filepath.Abs(p.show)
	if err != nil {
		return nil, err
	}
	p.prefix = abs
	return p, nil
}

// matchSeg matches one path component against one pattern component and
// returns what each '*' matched, in order (each '*' as short as the rest
// of the component allows, so the captures are deterministic).
func matchSeg(pat, name string) ([]string, bool) {
	if !isMeta(pat) {
		return nil, pat == name
	}
	var caps []string
	if !matchCaps(pat, name, &caps) {
		return nil, false
	}
	return caps, true
}

func matchCaps(pat, name string, caps *[]string) bool {
	for pat != "" {
		switch pat[0] {
		case '*':
			rest := pat[1:]
			for i := 0; i <= len(name); i++ {
				n := len(*caps)
				*caps = append(*caps, name[:i])
				if matchCaps(rest, name[i:], caps) {
					return true
				}
				*caps = (*caps)[:n]
			}
			return false
		case '?', '[':
			if name == "" {
				return false
			}
			end := 1
			if pat[0] == '[' {
				end = strings.IndexByte(pat, ']') + 1
				if end <= 1 {
					return false
				}
			}
			// One character of name.
			_, size := utf8.DecodeRuneInString(name)
			if m, _ := path.Match(pat[:end], name[:size]); !m {
				return false
			}
			name, pat = name[size:], pat[end:]
		default:
			if name == "" || name[0] != pat[0] {
				return false
			}
			pat, name = pat[1:], name[1:]
		}
	}
	return name == ""
}

// delegation is one delegation with a tenants glob, as every tenant of it
// needs it: the glob, the space pattern and the grant.
type delegation struct {
	index   int
	key     string // manifest path of its tenants key, for messages
	path    string // the delegation's path as written
	space   pathspace.Space
	pat     *pattern
	grant   validate.FileSet
	limits  tenantLimits
	summary string // what the tenant key hashes: path, only, except, glob, limits
}

// bindSpace fills the delegation path's '*'s with the captures, in order,
// and parses the result: the space of the tenant found there.
func bindSpace(delegPath string, caps []string) (pathspace.Space, error) {
	var b strings.Builder
	i := 0
	for _, c := range delegPath {
		if c == '*' {
			if i >= len(caps) {
				return pathspace.Space{}, errors.New("more '*' in the delegation than in its glob")
			}
			if msg := validate.UnsafeName(caps[i]); msg != "" {
				return pathspace.Space{}, fmt.Errorf("the directory name %q cannot fill a '*' of %q: it %s", caps[i], delegPath, msg)
			}
			if caps[i] == "" || strings.ContainsAny(caps[i], "*/") {
				return pathspace.Space{}, fmt.Errorf("the directory name %q cannot fill a '*' of %q", caps[i], delegPath)
			}
			b.WriteString(caps[i])
			i++
			continue
		}
		b.WriteRune(c)
	}
	sp, err := pathspace.Parse(pathspace.Root(), b.String())
	if err != nil {
		return pathspace.Space{}, fmt.Errorf("the directory names give the space %q: %v", b.String(), err)
	}
	if !sp.Literal() {
		return pathspace.Space{}, fmt.Errorf("the directory names give %s, which has a wildcard", sp)
	}
	return sp, nil
}

// components returns the directory components a tenant directory of p
// has, from the file system root: the prefix's, then the pattern's but
// the manifest's own.
func (p *pattern) components() []string {
	var out []string
	for _, c := range strings.Split(filepath.ToSlash(p.prefix), "/") {
		if c != "" {
			out = append(out, c)
		}
	}
	return append(out, p.segs[:len(p.segs)-1]...)
}

// dirsCanMeet reports whether a directory matched by a's directory
// components can be one matched by b's, or lie inside or around it.
func dirsCanMeet(a, b *pattern) bool {
	ca, cb := a.components(), b.components()
	for i := range min(len(ca), len(cb)) {
		x, y := ca[i], cb[i]
		switch {
		case !isMeta(x) && !isMeta(y) && x != y:
			return false
		case isMeta(x) && !isMeta(y):
			if _, ok := matchSeg(x, y); !ok {
				return false
			}
		case !isMeta(x) && isMeta(y):
			if _, ok := matchSeg(y, x); !ok {
				return false
			}
		}
	}
	return true
}

// below returns the components of abs, an absolute path, below p's
// prefix; false when abs is not below it.
func (p *pattern) below(abs string) ([]string, bool) {
	rel, err := filepath.Rel(p.prefix, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, false
	}
	return strings.Split(filepath.ToSlash(rel), "/"), true
}

// matchFile matches an absolute file path against the whole pattern and
// returns its components below the prefix and what each '*' matched.
func (p *pattern) matchFile(abs string) (comps, caps []string, ok bool) {
	comps, ok = p.below(abs)
	if !ok || len(comps) != len(p.segs) {
		return nil, nil, false
	}
	for i, c := range comps {
		cs, ok := matchSeg(p.segs[i], c)
		if !ok {
			return nil, nil, false
		}
		caps = append(caps, cs...)
	}
	return comps, caps, true
}
