// Package connectto sends HTTP requests for one host to another address,
// as curl's --connect-to and --resolve do: the request keeps its URL, so
// its Host header, the TLS server name and the certificate checked are
// the URL's, while the connection goes where a rule says. It lets a site
// that shares an address with others (name-based virtual hosts, a
// staging address, a server not yet in DNS) be fetched as itself.
package connectto

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Rule sends a connection for Host:Port to ToHost:ToPort. An empty Host
// or Port matches any; an empty ToHost or ToPort keeps the request's.
type Rule struct {
	Host, Port     string
	ToHost, ToPort string
}

func (r Rule) String() string {
	return bracket(r.Host) + ":" + r.Port + ":" + bracket(r.ToHost) + ":" + r.ToPort
}

// ParseConnectTo reads curl's --connect-to form, HOST1:PORT1:HOST2:PORT2,
// where any part may be empty and an IPv6 address is written in
// brackets ("[::1]").
func ParseConnectTo(s string) (Rule, error) {
	parts, err := split(s)
	if err != nil || len(parts) != 4 {
		return Rule{}, fmt.Errorf("%q is not HOST1:PORT1:HOST2:PORT2 (such as www.example.org:443:10.0.0.5:443)", s)
	}
	r := Rule{Host: parts[0], Port: parts[1], ToHost: parts[2], ToPort: parts[3]}
	for _, p := range []string{r.Port, r.ToPort} {
		if p != "" && !isPort(p) {
			return Rule{}, fmt.Errorf("%q: %q is not a port", s, p)
		}
	}
	if r.ToHost != "" && !isHost(r.ToHost) {
		return Rule{}, fmt.Errorf("%q: %q is not a host name or address", s, r.ToHost)
	}
	return r, nil
}

// ParseResolve reads curl's --resolve form, HOST:PORT:ADDRESS: requests
// for HOST on PORT connect to ADDRESS on the same port. HOST may be "*"
// for any host; of a comma-separated list of addresses the first is used.
func ParseResolve(s string) (Rule, error) {
	parts, err := split(s)
	if err != nil || len(parts) != 3 || parts[0] == "" || parts[2] == "" {
		return Rule{}, fmt.Errorf("%q is not HOST:PORT:ADDRESS (such as www.example.org:443:10.0.0.5)", s)
	}
	if !isPort(parts[1]) {
		return Rule{}, fmt.Errorf("%q: %q is not a port", s, parts[1])
	}
	addr, _, _ := strings.Cut(parts[2], ",")
	addr = strings.TrimSuffix(strings.TrimPrefix(addr, "["), "]")
	if net.ParseIP(addr) == nil {
		return Rule{}, fmt.Errorf("%q: %q is not an IP address", s, addr)
	}
	host := parts[0]
	if host == "*" {
		host = ""
	}
	return Rule{Host: host, Port: parts[1], ToHost: addr, ToPort: parts[1]}, nil
}

// Target returns the address a connection to addr (host:port) goes to
// under rules: the first rule that matches, or addr itself.
func Target(rules []Rule, addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	for _, r := range rules {
		if (r.Host == "" || strings.EqualFold(r.Host, host)) && (r.Port == "" || r.Port == port) {
			h, p := host, port
			if r.ToHost != "" {
				h = r.ToHost
			}
			if r.ToPort != "" {
				p = r.ToPort
			}
			return net.JoinHostPort(h, p)
		}
	}
	return addr
}

// Client returns a copy of base (http.DefaultClient's settings when nil)
// whose connections follow rules. Its transport is a clone of base's
// (of http.DefaultTransport when base has none) without a proxy: a rule
// names the server to connect to, which a proxy would not honour. With no
// rules, base is returned.
func Client(base *http.Client, rules []Rule) *http.Client {
	if len(rules) == 0 {
		return base
	}
	c := http.Client{}
	if base != nil {
		c = *base
	}
	var tr *http.Transport
	if t, ok := c.Transport.(*http.Transport); ok {
		tr = t.Clone()
	} else {
		tr = http.DefaultTransport.(*http.Transport).Clone()
	}
	tr.Proxy = nil
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	rs := append([]Rule(nil), rules...)
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return dialer.DialContext(ctx, network, Target(rs, addr))
	}
	c.Transport = tr
	return &c
}

// split cuts s at the colons outside brackets, taking the brackets off
// an IPv6 address.
func split(s string) ([]string, error) {
	var parts []string
	for {
		var part string
		if strings.HasPrefix(s, "[") {
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return nil, fmt.Errorf("unclosed [")
			}
			part, s = s[1:end], s[end+1:]
			if s != "" && s[0] != ':' {
				return nil, fmt.Errorf("text after ]")
			}
		} else {
			i := strings.IndexByte(s, ':')
			if i < 0 {
				i = len(s)
			}
			part, s = s[:i], s[i:]
		}
		parts = append(parts, part)
		if s == "" {
			return parts, nil
		}
		s = s[1:] // the colon
	}
}

func isPort(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n > 0 && n < 65536 && strconv.Itoa(n) == s
}

func isHost(s string) bool {
	if net.ParseIP(s) != nil {
		return true
	}
	if len(s) > 253 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return s != ""
}

func bracket(h string) string {
	if strings.Contains(h, ":") {
		return "[" + h + "]"
	}
	return h
}

// Rules parses the values of --connect-to and of --resolve, in that
// order: where two rules match a connection, the first wins, as in curl.
func Rules(connectTo, resolve []string) ([]Rule, error) {
	var rules []Rule
	for _, s := range connectTo {
		r, err := ParseConnectTo(s)
		if err != nil {
			return nil, fmt.Errorf("--connect-to %w", err)
		}
		rules = append(rules, r)
	}
	for _, s := range resolve {
		r, err := ParseResolve(s)
		if err != nil {
			return nil, fmt.Errorf("--resolve %w", err)
		}
		rules = append(rules, r)
	}
	return rules, nil
}
