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
}

// Licenses returns the License lines of a robots.txt file, in order.
func Licenses(data []byte) []LicenseLine {
	var out []LicenseLine
	inGroup := false  // a User-agent line has been read
	rules := false    // the group has had a rule line
	var pending []int // License lines of the group read before any rule
	num := 0
	for line := range bytes.Lines(skipBOM(data)) {
		num++
		// Read in place: only a License line's value becomes a string
		// (check reads a file of 100,000 rules through here). A '#'
		// before the colon makes the line a comment; after it, it ends
		// the value, looked for in a License line's only.
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok || bytes.IndexByte(k, '#') >= 0 {
			continue
		}
		key := string(bytes.TrimSpace(k)) // a short key: not allocated
		switch {
		case strings.EqualFold(key, "license"):
			if i := bytes.IndexByte(v, '#'); i >= 0 {
				v = v[:i]
			}
			out = append(out, LicenseLine{Num: num, Value: string(bytes.TrimSpace(v))})
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
			case KindAllow, KindDisallow:
				rules = true
				for _, i := range pending {
					out[i].InGroup = true
				}
				pending = pending[:0]
			}
		}
	}
	return out
}
