package robots

import (
	"bytes"
	"strings"
)

// LicenseLine is an RSL 1.0 License line of a robots.txt file
// (rslstandard.org): a global line, not part of any group, whose value is
// the absolute URL of an RSL document.
type LicenseLine struct {
	Num   int    // 1-based line number
	Value string // as written, trimmed
	// InGroup is set when the line stands inside a group: after a
	// User-agent line, with the group's rules (or none yet) still to
	// come. RFC 9309 readers read a group up to its next User-agent line,
	// so a crawler may take the line for its group's alone.
	InGroup bool
	// Grouped is set when the line stands in a group, before its rules or
	// after them: RFC 9309 reads a group up to the next User-agent line,
	// so a line after a group's rules is in it when another group
	// follows, or when no blank line parts it from the rules. A line
	// before the first User-agent line is in no group, and neither is one
	// in the file's tail: after the last group's rules and a blank line,
	// with no User-agent or rule line after it (where Sitemap lines
	// stand, and discgen writes License: Ruby's webrobots cannot parse a
	// file whose License line comes before the first User-agent line).
	Grouped bool
}

// Licenses returns the License lines of a robots.txt file, in order: the
// first MaxLines of them, as Parse reads no more lines.
func Licenses(data []byte) []LicenseLine { return LicensesBefore(data, 0) }

// LicensesBefore is Licenses of the lines before line end (0: all): those
// a lint that stopped at end checked.
func LicensesBefore(data []byte, end int) []LicenseLine {
	var out []LicenseLine
	inGroup := false  // a User-agent line has been read
	rules := false    // the group has had a rule line
	var pending []int // License lines of the group read before any rule
	blank := false    // a blank line since the last User-agent or rule line
	var open []int    // License lines after such a blank line: Grouped if a group line follows
	grouped := func() {
		for _, i := range open {
			out[i].Grouped = true
		}
		open, blank = open[:0], false
	}
	rule := func() {
		rules = true
		for _, i := range pending {
			out[i].InGroup = true
		}
		pending = pending[:0]
		grouped()
	}
	num := 0
	data = skipBOM(data)
	for len(data) > 0 {
		if num++; end > 0 && num >= end {
			break
		}
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		// Read in place (check reads files of 100,000 rules through
		// here). Only a key that starts with l, u, a or d can be
		// License, User-agent, Allow or Disallow (or a misspelling
		// Google accepts), and a rule in its usual spelling needs no
		// more than its first bytes.
		j := 0
		for j < len(line) && (line[j] == ' ' || line[j] >= '\t' && line[j] <= '\r' && line[j] != '\n') {
			j++
		}
		rest := line[j:]
		if len(rest) == 0 || rest[0] == '\n' {
			blank = blank || inGroup
			continue
		}
		switch c := rest[0] | 0x20; {
		case rest[0] >= 0x80: // perhaps a Unicode space: the general way below
		case c != 'l' && c != 'u' && c != 'a' && c != 'd':
			continue
		case bytes.HasPrefix(rest, []byte("Disallow:")) || bytes.HasPrefix(rest, []byte("Allow:")) ||
			bytes.HasPrefix(rest, []byte("disallow:")) || bytes.HasPrefix(rest, []byte("allow:")):
			rule()
			continue
		}
		// A '#' before the colon makes a comment of the line; after
		// it, it ends the value, looked for in a License line's only.
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok || bytes.IndexByte(k, '#') >= 0 {
			continue
		}
		key := string(bytes.TrimSpace(k)) // a short key: not allocated
		switch {
		case strings.EqualFold(key, "license"):
			if len(out) == MaxLines {
				return out
			}
			if i := bytes.IndexByte(v, '#'); i >= 0 {
				v = v[:i]
			}
			out = append(out, LicenseLine{Num: num, Value: string(bytes.TrimSpace(v)), Grouped: inGroup && (!blank || !rules)})
			if inGroup && blank && rules {
				open = append(open, len(out)-1)
			}
			if inGroup && !rules {
				out[len(out)-1].InGroup = true
			} else if inGroup {
				pending = append(pending, len(out)-1)
			}
		default:
			switch FieldKind(key) {
			case KindUserAgent:
				if rules || !inGroup {
					pending = pending[:0]
				}
				inGroup, rules = true, false
				grouped()
			case KindAllow, KindDisallow:
				rule()
			}
		}
	}
	return out
}
