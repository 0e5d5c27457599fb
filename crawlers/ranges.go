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
// "ipv4Prefix" or "ipv6Prefix". A prefix object may name the services
// (crawlers, fetchers) it is used for: a "services" array of strings, or
// the single "service" string of draft-illyes-aipref-jafar-00; Only keeps
// one service's prefixes. Other members (the draft's formatVersion,
// synctoken, notes, ...) are read past.
type RangeList struct {
	CreationTime string
	// Prefixes are sorted (IPv4 first, by address then length) and
	// unique.
	Prefixes []netip.Prefix
	// Services are the services a prefix is attributed to, for the
	// prefixes that name any (a prefix given twice has those of both).
	Services map[netip.Prefix][]string
}

// ServiceNames returns the services the file names, sorted.
func (rl *RangeList) ServiceNames() []string {
	var out []string
	for _, ss := range rl.Services {
		out = append(out, ss...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Only returns the list of the prefixes attributed to service (compared
// exactly: the draft makes service names case-sensitive), or an error
// naming the services the file has when none is.
func (rl *RangeList) Only(service string) (*RangeList, error) {
	out := &RangeList{CreationTime: rl.CreationTime, Services: map[netip.Prefix][]string{}}
	for _, p := range rl.Prefixes {
		if slices.Contains(rl.Services[p], service) {
			out.Prefixes = append(out.Prefixes, p)
			out.Services[p] = []string{service}
		}
	}
	if len(out.Prefixes) == 0 {
		names := rl.ServiceNames()
		if len(names) == 0 {
			return nil, fmt.Errorf("no prefix of the file names a service, so none is %s's", service)
		}
		return nil, fmt.Errorf("no prefix of the file is %s's; its services: %s", service, strings.Join(names, ", "))
	}
	return out, nil
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
			if rl.Prefixes, rl.Services, err = p.prefixes(); err != nil {
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

// MaxServices bounds the service names of one prefix entry.
const MaxServices = 100

func (p *rangeParser) prefixes() ([]netip.Prefix, map[netip.Prefix][]string, error) {
	var out []netip.Prefix
	var services map[netip.Prefix][]string
	for p.dec.More() {
		t, at, err := p.token()
		if err != nil {
			return nil, nil, err
		}
		if t != json.Delim('{') {
			return nil, nil, p.errAt(at, "a prefixes entry must be an object holding ipv4Prefix or ipv6Prefix")
		}
		if len(out) == MaxPrefixes {
			return nil, nil, p.errAt(at, "more than %d prefixes", MaxPrefixes)
		}
		var got bool
		var pf netip.Prefix
		var names []string
		for p.dec.More() {
			k, kat, err := p.token()
			if err != nil {
				return nil, nil, err
			}
			v, vat, err := p.token()
			if err != nil {
				return nil, nil, err
			}
			switch k {
			case "ipv4Prefix", "ipv6Prefix":
			case "services":
				more, err := p.services(v, vat)
				if err != nil {
					return nil, nil, err
				}
				names = append(names, more...)
				continue
			case "service":
				s, ok := v.(string)
				if !ok {
					return nil, nil, p.errAt(vat, "service must be a string")
				}
				if s == "" {
					return nil, nil, p.errAt(vat, "a service name is empty")
				}
				names = append(names, s)
				continue
			default:
				if err := p.skip(v); err != nil {
					return nil, nil, err
				}
				continue
			}
			if got {
				return nil, nil, p.errAt(kat, "an entry holds one prefix, and this one has two")
			}
			got = true
			s, ok := v.(string)
			if !ok {
				return nil, nil, p.errAt(vat, "%s must be a string", k)
			}
			if pf, err = ParsePrefix(s, k == "ipv6Prefix"); err != nil {
				return nil, nil, p.errAt(vat, "%s: %v", k, err)
			}
		}
		_, end, err := p.token()
		if err != nil {
			return nil, nil, err
		}
		if !got {
			return nil, nil, p.errAt(end, "an entry with neither ipv4Prefix nor ipv6Prefix")
		}
		out = append(out, pf)
		if len(names) > 0 {
			if services == nil {
				services = map[netip.Prefix][]string{}
			}
			all := append(services[pf], names...)
			slices.Sort(all)
			services[pf] = slices.Compact(all)
		}
	}
	_, _, err := p.token()
	return out, services, err
}

// services reads a "services" member whose first token is v (at vat): an
// array of non-empty strings, at most MaxServices.
func (p *rangeParser) services(v json.Token, vat int) ([]string, error) {
	const msg = "services must be an array of strings"
	if v != json.Delim('[') {
		return nil, p.errAt(vat, msg)
	}
	var out []string
	for p.dec.More() {
		t, at, err := p.token()
		if err != nil {
			return nil, err
		}
		s, ok := t.(string)
		if !ok {
			return nil, p.errAt(at, msg)
		}
		if s == "" {
			return nil, p.errAt(at, "a service name is empty")
		}
		if len(out) == MaxServices {
			return nil, p.errAt(at, "more than %d services for one prefix", MaxServices)
		}
		out = append(out, s)
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
