package pathspace

import "strings"

// Space is a delegated URL-path space: every URL path that begins with its
// segment patterns, each followed by "/". The zero Space is [Root], the whole
// address space of a site. Spaces are comparable: two spaces are equal (==)
// exactly when they hold the same URL paths.
type Space struct {
	// s is the canonical absolute form, "/a/b*/", or "" for the root.
	s string
}

// Root returns the space of a site's root authority, "/": the zero
// Space.
func Root() Space { return Space{} }

// String returns the canonical absolute form, such as "/~*/" or "/".
func (s Space) String() string {
	if s.s == "" {
		return "/"
	}
	return s.s
}

// Relative returns the form of s written on a line of base's
// subdirectories.txt, "/<path>/" relative to base (seed 000 section 4.2: "the
// path is relative to the directory for which subdirectories.txt has
// authority"). It reports false when s is not strictly below base.
func (s Space) Relative(base Space) (string, bool) {
	b := base.String()
	if len(s.s) <= len(b) || !strings.HasPrefix(s.s, b) {
		return "", false
	}
	return s.s[len(b)-1:], true
}

// Literal reports whether s has no wildcard.
func (s Space) Literal() bool {
	return strings.IndexByte(s.s, '*') < 0
}

// Depth returns the number of segments of s; the root has none.
func (s Space) Depth() int {
	if s.s == "" {
		return 0
	}
	return strings.Count(s.s, "/") - 1
}

// Segments returns the canonical segment patterns of s, outermost first.
func (s Space) Segments() []string {
	if s.s == "" {
		return nil
	}
	return strings.Split(s.s[1:len(s.s)-1], "/")
}

// Contains reports whether the URL path p lies in s. The path is brought to
// canonical form first: a query or fragment is ignored, escapes are
// normalised and "." and ".." segments are resolved, so "/~bob/../~alice/x"
// is in "/~alice/". A path that does not begin with "/" is in no space.
func (s Space) Contains(p string) bool {
	p, ok := canonicalURLPath(p)
	if !ok {
		return false
	}
	return s.containsCanonical(p)
}

// CanonicalPath returns the canonical form of the URL path p that
// [Space.Contains] matches: a query or fragment cut off, escapes normalised
// as in a delegation path (a raw "*" becomes %2A, a stray "%" becomes %25)
// and "." and ".." segments resolved. It reports false when p does not begin
// with "/".
func CanonicalPath(p string) (string, bool) { return canonicalURLPath(p) }

// IsInstance reports whether s is one of the directories the delegation
// pattern names: literal, of the pattern's depth, and within it. A tenant of
// the delegation "/~*/" must be an instance, such as "/~alice/", so that its
// autodisc directory is where consumers look for it.
func IsInstance(pattern, s Space) bool {
	return s.Literal() && s.Depth() == pattern.Depth() && Within(pattern, s)
}

// containsCanonical is Contains for a path already in canonical form.
func (s Space) containsCanonical(p string) bool {
	si, pi := 1, 1
	for si < len(s.s) {
		pat, nsi := nextSegment(s.s, si)
		j := strings.IndexByte(p[pi:], '/')
		if j < 0 {
			return false
		}
		if !matchSegment(pat, p[pi:pi+j]) {
			return false
		}
		si, pi = nsi, pi+j+1
	}
	return true
}

// nextSegment returns the segment of the canonical form c that starts at
// index i, and the index where the next one starts.
func nextSegment(c string, i int) (string, int) {
	j := strings.IndexByte(c[i:], '/')
	return c[i : i+j], i + j + 1
}
