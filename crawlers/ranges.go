package crawlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxRangesSize bounds a ranges file ParseRanges reads: Google's
// googlebot.json of 2026 is about 16 KB, its largest list (user-triggered
// fetchers) under 100 KB.
const MaxRangesSize = 1 << 20

// MaxPrefixes bounds the prefixes of one ranges file: a server
// configuration holds every one of them.
const MaxPrefixes = 10000

// Narrowest prefix lengths a ranges file may hold: a shorter prefix
// covers so much of the Internet that a request from it identifies
// nothing (a list holding 0.0.0.0/0 would verify every client).
const (
	MinIPv4Bits = 8
	MinIPv6Bits = 16
)

// RangeList is a parsed ranges file in the shape Google publishes
// (googlebot.json) and draft-illyes-webbotauth-jafar names: an object with
// "creationTime" and "prefixes", an array of objects each holding one
// "ipv4Prefix" or "ipv6Prefix". Other members (the draft's formatVersion,
// syncToken, ...) are read past.
type RangeList struct {
	CreationTime string
	// Prefixes are sorted (IPv4 first, by address then length) and
	// unique.
	Prefixes []netip.Prefix
}

// RangeError is a ranges file that cannot be used, at its line and column
// (1-based, the column in characters).
type RangeError struct {
	Line, Col int
	Msg       string
}

func (e *RangeError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// ParseRanges reads a ranges file. It refuses, with a *RangeError at the
// value's position: a file over MaxRangesSize (at 1:1) or that is not one
// JSON object; a prefixes member that is missing or not an array of
// objects; an entry with no or both prefix members; a prefix that does
// not parse, is of the other family than its member says, has bits set
// past its length (not a network: "66.249.64.1/27"), or is shorter than
// MinIPv4Bits / MinIPv6Bits; more than MaxPrefixes prefixes; a list with
// none.
func ParseRanges(data []byte) (*RangeList, error) {
	p := &rangeParser{data: data}
	if len(data) > MaxRangesSize {
		return nil, p.errAt(0, "%d bytes, more than the %d a ranges file may hold", len(data), MaxRangesSize)
	}
	if !utf8.Valid(data) {
		return nil, p.errAt(0, "not UTF-8 text")
	}
	p.dec = json.NewDecoder(bytes.NewReader(data))
	rl, err := p.list()
	if err != nil {
		return nil, err
	}
	if rest := bytes.TrimLeft(data[p.dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return nil, p.errAt(len(data)-len(rest), "text after the JSON object")
	}
	return rl, nil
}

type rangeParser struct {
	data []byte
	dec  *json.Decoder
}

func (p *rangeParser) errAt(off int, format string, args ...any) *RangeError {
	off = min(max(off, 0), len(p.data))
	line, start := 1, 0
	for i, b := range p.data[:off] {
		if b == '\n' {
			line, start = line+1, i+1
		}
	}
	return &RangeError{Line: line, Col: utf8.RuneCount(p.data[start:off]) + 1, Msg: fmt.Sprintf(format, args...)}
}

// token returns the next token and the offset where it starts.
func (p *rangeParser) token() (json.Token, int, error) {
	at := int(p.dec.InputOffset())
	for at < len(p.data) && strings.IndexByte(" \t\r\n:,", p.data[at]) >= 0 {
		at++
	}
	t, err := p.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			return nil, 0, p.errAt(int(se.Offset), "%v", se)
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return nil, 0, p.errAt(len(p.data), "unexpected end of JSON input")
		}
		return nil, 0, p.errAt(at, "%v", err)
	}
	return t, at, nil
}

// skip reads past one value whose first token is t.
func (p *rangeParser) skip(t json.Token) error {
	if t != json.Delim('{') && t != json.Delim('[') {
		return nil
	}
	for depth := 1; depth > 0; {
		t, _, err := p.token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}

func (p *rangeParser) list() (*RangeList, error) {
	t, at, err := p.token()
	if err != nil {
		return nil, err
	}
	if t != json.Delim('{') {
		return nil, p.errAt(at, "not a ranges file: a JSON object with \"prefixes\" was expected")
	}
	rl := &RangeList{}
	seen := false
	for p.dec.More() {
		k, kat, err := p.token()
		if err != nil {
			return nil, err
		}
		v, vat, err := p.token()
		if err != nil {
			return nil, err
		}
		switch k {
		case "creationTime":
			s, ok := v.(string)
			if !ok {
				return nil, p.errAt(vat, "creationTime must be a string")
			}
			rl.CreationTime = s
		case "prefixes":
			if seen {
				return nil, p.errAt(kat, "prefixes given twice")
			}
			seen = true
			if v != json.Delim('[') {
				return nil, p.errAt(vat, "prefixes must be an array")
			}
			if rl.Prefixes, err = p.prefixes(); err != nil {
				return nil, err
			}
		default:
			if err := p.skip(v); err != nil {
				return nil, err
			}
		}
	}
	if _, _, err := p.token(); err != nil {
		return nil, err
	}
	if !seen {
		return nil, p.errAt(0, "no \"prefixes\": not a ranges file")
	}
	if len(rl.Prefixes) == 0 {
		return nil, p.errAt(0, "no prefixes: an empty list would verify no request")
	}
	slices.SortFunc(rl.Prefixes, comparePrefix)
	rl.Prefixes = slices.Compact(rl.Prefixes)
	return rl, nil
}

func (p *rangeParser) prefixes() ([]netip.Prefix, error) {
	var out []netip.Prefix
	for p.dec.More() {
		t, at, err := p.token()
		if err != nil {
			return nil, err
		}
		if t != json.Delim('{') {
			return nil, p.errAt(at, "a prefixes entry must be an object holding ipv4Prefix or ipv6Prefix")
		}
		if len(out) == MaxPrefixes {
			return nil, p.errAt(at, "more than %d prefixes", MaxPrefixes)
		}
		var got bool
		for p.dec.More() {
			k, kat, err := p.token()
			if err != nil {
				return nil, err
			}
			v, vat, err := p.token()
			if err != nil {
				return nil, err
			}
			if k != "ipv4Prefix" && k != "ipv6Prefix" {
				if err := p.skip(v); err != nil {
					return nil, err
				}
				continue
			}
			if got {
				return nil, p.errAt(kat, "an entry holds one prefix, and this one has two")
			}
			got = true
			s, ok := v.(string)
			if !ok {
				return nil, p.errAt(vat, "%s must be a string", k)
			}
			pf, err := ParsePrefix(s, k == "ipv6Prefix")
			if err != nil {
				return nil, p.errAt(vat, "%s: %v", k, err)
			}
			out = append(out, pf)
		}
		_, end, err := p.token()
		if err != nil {
			return nil, err
		}
		if !got {
			return nil, p.errAt(end, "an entry with neither ipv4Prefix nor ipv6Prefix")
		}
	}
	_, _, err := p.token()
	return out, err
}

// ParsePrefix reads one prefix of the family v6 says: a network in CIDR
// notation, with no bits set past its length, at least MinIPv4Bits or
// MinIPv6Bits long.
func ParsePrefix(s string, v6 bool) (netip.Prefix, error) {
	pf, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("%q is not an address prefix (CIDR notation, such as 66.249.64.0/27)", s)
	}
	a := pf.Addr()
	switch {
	case a.Zone() != "":
		return netip.Prefix{}, fmt.Errorf("%q has a zone", s)
	case v6 && !a.Is6(), v6 && a.Is4In6():
		return netip.Prefix{}, fmt.Errorf("%q is not an IPv6 prefix", s)
	case !v6 && !a.Is4():
		return netip.Prefix{}, fmt.Errorf("%q is not an IPv4 prefix", s)
	case pf.Masked() != pf:
		return netip.Prefix{}, fmt.Errorf("%q is not a network: it has bits set past /%d (the network is %s)", s, pf.Bits(), pf.Masked())
	case a.Is4() && pf.Bits() < MinIPv4Bits, a.Is6() && pf.Bits() < MinIPv6Bits:
		return netip.Prefix{}, fmt.Errorf("%q covers too much to identify a crawler (shorter than /%d)", s, map[bool]int{false: MinIPv4Bits, true: MinIPv6Bits}[a.Is6()])
	}
	return pf, nil
}

// comparePrefix orders IPv4 before IPv6, then by address, then by length.
func comparePrefix(x, y netip.Prefix) int {
	if c := x.Addr().Compare(y.Addr()); c != 0 {
		return c
	}
	return x.Bits() - y.Bits()
}
