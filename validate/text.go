package validate

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

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
			if msg := unsafeText(k, false); msg != "" {
				v.errKey(child, "key %s %s", quoteShort(k), msg)
				v.refuse(child)
				continue
			}
			v.lineSafe(x[k], child)
		}
	case []any:
		for i, e := range x {
			if s, ok := e.(string); ok && unsafeText(s, false) == "" {
				continue // safe anywhere: no need to build its path
			}
			if p := manifest.Index(path, i); !v.skip[p] {
				v.lineSafe(e, p)
			}
		}
	case string:
		body := bodyPath.MatchString(path)
		if msg := unsafeText(x, body); msg != "" {
			v.err(path, "%s %s", quoteShort(x), msg)
			v.refuse(path)
		}
	}
}

// bodyPath matches the path of a well-known file's content, in the
// manifest or in one of its environments.
var bodyPath = regexp.MustCompile(`^(?:environments(?:\.[A-Za-z_][A-Za-z0-9_]*|\["(?:[^"\\]|\\.)*"\])\.)?well_known\.files\[\d+\]\.content$`)

// unsafeText describes the first character that may not appear in a
// manifest value, or returns "".
func unsafeText(s string, body bool) string {
	if !utf8.ValidString(s) {
		return "is not valid UTF-8"
	}
	for _, r := range s {
		switch {
		case body && (r == '\n' || r == '\r' || r == '\t'):
		case r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029:
			return fmt.Sprintf("contains a line break (%U); a value cannot span lines", r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return fmt.Sprintf("contains the control character %U; remove it", r)
		}
	}
	return ""
}

// quoteShort quotes s for a message, cut to its first 40 characters.
func quoteShort(s string) string {
	const max = 40
	if utf8.RuneCountInString(s) <= max {
		return strconv.Quote(s)
	}
	n := 0
	for i := range s {
		if n == max {
			return strconv.Quote(s[:i]) + "..."
		}
		n++
	}
	return strconv.Quote(s)
}

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
