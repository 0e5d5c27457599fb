package generate

import (
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/tree"
)

// autodiscDir is what one authority defines in its autodisc directory.
type autodiscDir struct {
	dir   string          // tree path of the directory holding autodisc/ ("" for the output root)
	space pathspace.Space // the authority's URL-path space
	base  *url.URL        // what relative URIs resolve against
	body  *manifest.Delegatee
	// robots, when not nil, is this directory's robots.txt: the site's
	// own for the root, the delegatee's agents otherwise.
	robots []byte
	// robotsLink makes autodisc/robots.txt a symbolic link to the
	// site's /robots.txt instead of a copy.
	robotsLink bool
}

// render writes the directory's files and its index.txt into t.
func (a *autodiscDir) render(t tree.Tree) error {
	files := map[string][]byte{}
	if a.robots != nil {
		files["robots.txt"] = a.robots
	}
	if d := a.body.Description; d != "" {
		files["description.txt"] = []byte(d + "\n")
	}
	if len(a.body.Icons) > 0 {
		files["icons.txt"] = lines(a.body.Icons, a.resolve)
	}
	if len(a.body.Feeds) > 0 {
		files["feeds.txt"] = lines(a.body.Feeds, a.feedLine)
	}
	if len(a.body.Delegations) > 0 {
		files["subdirectories.txt"] = lines(a.body.Delegations, a.subdirLine)
	}
	for name, content := range a.body.Files {
		files[name] = lines(content, func(s string) string { return s })
	}
	if len(files) == 0 {
		return nil
	}
	names := slices.Sorted(maps.Keys(files))
	files["index.txt"] = lines(names, func(s string) string { return s })
	prefix := join(a.dir, "autodisc")
	for _, name := range slices.Sorted(maps.Keys(files)) {
		p := join(prefix, name)
		if name == "robots.txt" && a.robotsLink {
			if err := tree.CheckPath(p); err != nil {
				return err
			}
			t[p] = tree.Entry{Link: "../robots.txt"}
			continue
		}
		if err := t.Put(p, files[name]); err != nil {
			return err
		}
	}
	return nil
}

// resolve makes a manifest URI reference absolute against the authority's
// base, so a consumer reads the same URI wherever it found the file.
func (a *autodiscDir) resolve(ref string) string {
	return resolveURI(a.base, ref)
}

// resolveURI resolves ref against base and writes the result in the
// canonical form robots.txt paths use (RFC 3986 section 6.2.2): scheme
// and host lower-cased, dot segments removed, escapes of unreserved characters decoded ("%7E" is
// "~"), other escapes upper-cased, non-ASCII percent-encoded as UTF-8.
// Two spellings of one URI in a manifest give the same line.
func resolveURI(base *url.URL, ref string) string { return kit.ResolveSiteRef(base, ref) }

// feedLine is "[type] URI" when a type is given (seed 000 section 4.6).
func (a *autodiscDir) feedLine(f manifest.Feed) string {
	if f.Type != "" {
		return "[" + f.Type + "] " + a.resolve(f.URL)
	}
	return a.resolve(f.URL)
}

// subdirLine is "/path/", "/path/ a.txt b.txt" (only) or
// "/path/ - a.txt b.txt" (except), the path relative to the delegator
// (seed 000 section 4.2). Below the root it is written without the
// leading "/" ("blog/" in /~alice/autodisc/subdirectories.txt): the seed
// reads it relative either way, and a reader that takes "/blog/" from the
// site's root would look for the delegatee where its files are not.
func (a *autodiscDir) subdirLine(d manifest.Delegation) string {
	space, err := pathspace.Parse(a.space, d.Path)
	if err != nil {
		return d.Path // validation has refused it already
	}
	rel, _ := space.Relative(a.space)
	if a.space != pathspace.Root() {
		rel = rel[1:]
	}
	switch {
	case len(d.Only) > 0:
		return rel + " " + strings.Join(d.Only, " ")
	case len(d.Except) > 0:
		return rel + " - " + strings.Join(d.Except, " ")
	}
	return rel
}

// lines renders one line per item, LF-terminated.
func lines[T any](items []T, f func(T) string) []byte {
	var b strings.Builder
	for _, it := range items {
		b.WriteString(f(it))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// dirOf turns a literal space into the tree directory that serves it:
// "/projects/caf%C3%A9/" is "projects/café".
func dirOf(s pathspace.Space) string {
	segs := s.Segments()
	out := make([]string, len(segs))
	for i, seg := range segs {
		if u, err := url.PathUnescape(seg); err == nil {
			seg = u
		}
		out[i] = seg
	}
	return strings.Join(out, "/")
}
