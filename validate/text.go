package validate

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// lineSafe walks every key and string of the manifest and rejects line
// breaks and control characters: no manifest value can add a line to a
// generated file. Values already refused are not walked. A well-known file's content is a whole file body, so it
// may hold line breaks and tabs, but no other control characters.
func (v *checker) lineSafe(inst any, path string) {
	switch x := inst.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			child := manifest.Key(path, k)
			if child == v.envPath || v.skip[child] {
				// The selected environment's values are checked where
				// they apply, at the top-level keys they replace.
				continue
			}
			if msg := unsafeText(k, textStrict); msg != "" {
				v.errKey(child, "key %s %s", quoteShort(k), msg)
				v.refuse(child)
				continue
			}
			v.lineSafe(x[k], child)
		}
	case []any:
		for i, e := range x {
			if s, ok := e.(string); ok && len(s) <= MaxValueBytes && unsafeText(s, textStrict) == "" {
				continue // safe anywhere: no need to build its path
			}
			if p := manifest.Index(path, i); !v.skip[p] {
				v.lineSafe(e, p)
			}
		}
	case string:
		if len(x) <= MaxValueBytes && unsafeText(x, textStrict) == "" {
			return // safe anywhere: no need to match its path (the strict kind refuses most)
		}
		kind := textStrict
		switch {
		case bodyPath.MatchString(path):
			kind = textBody
		case freeTextPath.MatchString(path):
			kind = textFree
		case detailsPath.MatchString(path):
			v.proseSafe(path, x) // prose of many lines, each error at its character (llms.go)
			return
		}
		if msg := unsafeText(x, kind); msg != "" {
			v.err(path, "%s %s", quoteShort(x), msg)
			v.refuse(path)
		} else if kind != textBody && len(x) > MaxValueBytes {
			v.err(path, "%s is %d bytes; a one-line value holds at most %d (so that no line of robots.txt is longer than Google's parser reads, %d bytes)",
				quoteShort(x), len(x), MaxValueBytes, maxRobotsLine)
			v.refuse(path)
		}
	}
}

// bodyPath matches the path of a well-known file's content, in the
// manifest or in one of its environments.
var bodyPath = lazyre.New(`^(?:environments(?:\.[A-Za-z_][A-Za-z0-9_]*|\["(?:[^"\\]|\\.)*"\])\.)?well_known\.files\[\d+\]\.content$`)

// freeTextPath matches the values that hold prose rather than a path, name
// or URL: descriptions, dataset titles and the lines of x- files. Some
// scripts need the zero-width characters U+200B-U+200F in prose.
var freeTextPath = lazyre.New(`(?:^|\.)(?:description|title|summary|notes)$|(?:^|\.)files\[(?:"(?:[^"\\]|\\.)*")\](?:\[\d+\])?$`)

// textKind says which characters a value may hold.
type textKind int

const (
	textStrict textKind = iota // a path, name, URL or token: one line, nothing invisible
	textFree                   // one line of prose: zero-width characters allowed
	textBody                   // a whole file body: line breaks and tabs allowed too
)

// unsafeText describes the first character that may not appear in a
// manifest value of the given kind, or returns "". Design section 6:
// bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069),
// U+FEFF and tag characters (U+E0000-U+E007F) can make a value display as
// something it is not, so they are refused in every one-line value; the
// zero-width characters U+200B-U+200F are refused except in prose.
func unsafeText(s string, kind textKind) string {
	if !utf8.ValidString(s) {
		return "is not valid UTF-8"
	}
	for _, r := range s {
		switch {
		case kind == textBody && (r == '\n' || r == '\r' || r == '\t'):
		case r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029:
			return fmt.Sprintf("contains a line break (%U); a value cannot span lines", r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return fmt.Sprintf("contains the control character %U; remove it", r)
		case kind == textBody:
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return fmt.Sprintf("contains the bidirectional control %U (%s), which makes text display in another order than it is read; remove it", r, invisibleName(r))
		case r == 0xfeff:
			return "contains U+FEFF (ZERO WIDTH NO-BREAK SPACE, a byte order mark), an invisible character; remove it"
		case r >= 0xe0000 && r <= 0xe007f:
			return fmt.Sprintf("contains the tag character %U, which is invisible; remove it", r)
		case kind == textStrict && r >= 0x200b && r <= 0x200f:
			return fmt.Sprintf("contains the invisible character %U (%s), which paths, names and URLs cannot hold; remove it", r, invisibleName(r))
		}
	}
	return ""
}

// UnsafeName describes the first character a path, name or URL may not
// hold (a line break, a control, bidirectional or invisible character),
// or returns "": the rule every such value of a manifest follows, for a
// value that comes from elsewhere, such as a tenant's directory name.
func UnsafeName(s string) string { return unsafeText(s, textStrict) }

// invisibleName is the Unicode name of an invisible character unsafeText
// refuses.
func invisibleName(r rune) string {
	return map[rune]string{
		0x200b: "ZERO WIDTH SPACE", 0x200c: "ZERO WIDTH NON-JOINER", 0x200d: "ZERO WIDTH JOINER",
		0x200e: "LEFT-TO-RIGHT MARK", 0x200f: "RIGHT-TO-LEFT MARK",
		0x202a: "LEFT-TO-RIGHT EMBEDDING", 0x202b: "RIGHT-TO-LEFT EMBEDDING", 0x202c: "POP DIRECTIONAL FORMATTING",
		0x202d: "LEFT-TO-RIGHT OVERRIDE", 0x202e: "RIGHT-TO-LEFT OVERRIDE",
		0x2066: "LEFT-TO-RIGHT ISOLATE", 0x2067: "RIGHT-TO-LEFT ISOLATE", 0x2068: "FIRST STRONG ISOLATE",
		0x2069: "POP DIRECTIONAL ISOLATE",
	}[r]
}

// quoteShort quotes s for a message, cut to its first 40 characters.
func quoteShort(s string) string { return kit.QuoteShort(s) }

// noHash rejects "#" in a value bound for a line-oriented file where "#"
// starts a comment (robots.txt, data.txt records).
func (v *checker) noHash(path, s, file string) bool {
	if strings.Contains(s, "#") {
		v.err(path, "%q: \"#\" would start a comment in %s; write it as %%23", s, file)
		return false
	}
	return true
}

// noSpace rejects white space inside a value that must be one token.
func (v *checker) noSpace(path, s, what string) bool {
	if i := strings.IndexFunc(s, func(r rune) bool { return r == ' ' || r == '\t' }); i >= 0 {
		v.err(path, "%q: %s cannot contain white space", s, what)
		return false
	}
	return true
}
