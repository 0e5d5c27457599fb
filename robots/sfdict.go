package robots

import (
	"fmt"
	"slices"
	"strings"
)

// sfMember is one member of a structured-field dictionary (RFC 9651
// section 3.2): a key and its bare item, parameters dropped (the usage
// vocabulary gives them no meaning and says to ignore them).
type sfMember struct {
	Key string
	// Value is the item as written when it is a Token; Kind says what
	// kind of bare item it is.
	Value string
	Kind  sfKind
}

type sfKind int

const (
	sfToken sfKind = iota + 1
	sfBoolean
	sfOther // integer, decimal, string, byte sequence, date, display string
)

// maxDictMembers bounds the members one value may hold: a robots.txt line
// is at most MaxLineLen bytes, so this bounds nothing a real file says.
const maxDictMembers = 1024

// parseDict parses a structured-field dictionary as RFC 9651 section 4.2.2
// does, strictly: any syntax error fails the whole value. Members keep
// their order of first appearance; a repeated key keeps its last value
// (the RFC's rule), and dups names each key given more than once.
// Inner lists are refused: the usage vocabulary has no use for them.
func parseDict(s string) (members []sfMember, dups []string, err error) {
	p := sfParser{s: s}
	p.skipSP()
	index := map[string]int{}
	for p.i < len(p.s) {
		key, err := p.key()
		if err != nil {
			return nil, nil, err
		}
		m := sfMember{Key: key, Kind: sfBoolean, Value: "?1"}
		if p.peek() == '=' {
			p.i++
			if m.Value, m.Kind, err = p.bareItem(); err != nil {
				return nil, nil, err
			}
		}
		if err := p.params(); err != nil {
			return nil, nil, err
		}
		if j, ok := index[key]; ok {
			if !slices.Contains(dups, key) {
				dups = append(dups, key)
			}
			members[j] = m
		} else {
			if len(members) == maxDictMembers {
				return nil, nil, fmt.Errorf("more than %d members", maxDictMembers)
			}
			index[key] = len(members)
			members = append(members, m)
		}
		p.skipOWS()
		if p.i == len(p.s) {
			break
		}
		if p.s[p.i] != ',' {
			return nil, nil, fmt.Errorf("expected \",\" at byte %d", p.i+1)
		}
		p.i++
		p.skipOWS()
		if p.i == len(p.s) {
			return nil, nil, fmt.Errorf("trailing \",\"")
		}
	}
	return members, dups, nil
}

type sfParser struct {
	s string
	i int
}

func (p *sfParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *sfParser) skipSP() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *sfParser) skipOWS() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func isLCAlpha(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool   { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool   { return isLCAlpha(c) || c >= 'A' && c <= 'Z' }

// key parses an RFC 9651 key: lcalpha or "*", then lcalpha, digits,
// "_", "-", "." or "*".
func (p *sfParser) key() (string, error) {
	start := p.i
	if c := p.peek(); !isLCAlpha(c) && c != '*' {
		if c >= 'A' && c <= 'Z' {
			return "", fmt.Errorf("key at byte %d starts with an upper-case letter (keys are lower case)", p.i+1)
		}
		return "", fmt.Errorf("expected a key at byte %d", p.i+1)
	}
	for p.i < len(p.s) {
		c := p.s[p.i]
		if !isLCAlpha(c) && !isDigit(c) && !strings.ContainsRune("_-.*", rune(c)) {
			break
		}
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] >= 'A' && p.s[p.i] <= 'Z' {
		return "", fmt.Errorf("key at byte %d has an upper-case letter (keys are lower case)", start+1)
	}
	return p.s[start:p.i], nil
}

// tchar is RFC 9110's token character, with ":" and "/" that RFC 9651
// tokens also allow.
func isTokenChar(c byte) bool {
	return isAlpha(c) || isDigit(c) || strings.IndexByte("!#$%&'*+-.^_`|~:/", c) >= 0
}

func (p *sfParser) bareItem() (string, sfKind, error) {
	start := p.i
	switch c := p.peek(); {
	case isAlpha(c) || c == '*':
		p.i++
		for p.i < len(p.s) && isTokenChar(p.s[p.i]) {
			p.i++
		}
		return p.s[start:p.i], sfToken, nil
	case c == '?':
		if p.i+1 < len(p.s) && (p.s[p.i+1] == '0' || p.s[p.i+1] == '1') {
			p.i += 2
			return p.s[start:p.i], sfBoolean, nil
		}
		return "", 0, fmt.Errorf("bad boolean at byte %d", p.i+1)
	case c == '-' || isDigit(c):
		p.i++
		for p.i < len(p.s) && (isDigit(p.s[p.i]) || p.s[p.i] == '.') {
			p.i++
		}
		if p.i-start > 20 {
			return "", 0, fmt.Errorf("number at byte %d is too long", start+1)
		}
		return p.s[start:p.i], sfOther, nil
	case c == '"':
		p.i++
		for p.i < len(p.s) {
			switch d := p.s[p.i]; {
			case d == '\\':
				if p.i+1 >= len(p.s) || p.s[p.i+1] != '"' && p.s[p.i+1] != '\\' {
					return "", 0, fmt.Errorf("bad escape in string at byte %d", p.i+1)
				}
				p.i += 2
			case d == '"':
				p.i++
				return p.s[start:p.i], sfOther, nil
			case d < 0x20 || d > 0x7e:
				return "", 0, fmt.Errorf("bad character in string at byte %d", p.i+1)
			default:
				p.i++
			}
		}
		return "", 0, fmt.Errorf("unterminated string")
	case c == ':':
		end := strings.IndexByte(p.s[p.i+1:], ':')
		if end < 0 {
			return "", 0, fmt.Errorf("unterminated byte sequence")
		}
		p.i += end + 2
		return p.s[start:p.i], sfOther, nil
	case c == '(':
		return "", 0, fmt.Errorf("an inner list at byte %d is not a preference", p.i+1)
	}
	return "", 0, fmt.Errorf("expected a value at byte %d", p.i+1)
}

// params skips parameters: ";" key ["=" bare-item], repeated.
func (p *sfParser) params() error {
	for p.peek() == ';' {
		p.i++
		p.skipSP()
		if _, err := p.key(); err != nil {
			return err
		}
		if p.peek() == '=' {
			p.i++
			if _, _, err := p.bareItem(); err != nil {
				return err
			}
		}
	}
	return nil
}
