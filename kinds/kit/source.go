package kit

import "github.com/discgen/discgen/manifest"

// SourceFile is what the kinds whose file is a source beside the manifest
// (Sourced) have in common: the manifest gives the file's path, which
// validate checks as it checks every source; the file itself is checked
// when it is read (by the kind's shape check or lint); nothing is
// rendered, the source is copied. Such a kind embeds a SourceFile and
// gives its own Name, Key, Path and MediaType.
type SourceFile struct {
	// Of returns the source's path as the manifest gives it; "" for none.
	Of func(*manifest.Site) string
}

// Given reports whether the manifest names the source.
func (f SourceFile) Given(site *manifest.Site) bool { return f.Of(site) != "" }

// Check finds nothing in the manifest's value: the file is checked when
// it is read.
func (SourceFile) Check(*manifest.Site, Build) []Finding { return nil }

// Render returns no file: the file is the source, copied (Source).
func (SourceFile) Render(*manifest.Site, Build) ([]byte, bool) { return nil, false }

// Source returns the file's path relative to the manifest.
func (f SourceFile) Source(site *manifest.Site) (string, bool) {
	s := f.Of(site)
	return s, s != ""
}

// SourceAt is the SourceFile of a kind whose manifest value is the
// source's path, a string at key that the kind owns (Owner): Of reads it
// with Text.
func SourceAt(key string) SourceFile {
	return SourceFile{Of: func(site *manifest.Site) string { return Text(site, key) }}
}
