package oauthmeta

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/discgen/discgen/kinds/kit"
)

// checker is kit's JSON checker with the checks both documents share.
type checker struct {
	*kit.JSONChecker
	origin string // the site's origin, "" when unknown (lint)
}

// parse reads data as a JSON object; ok is false (and the problems are
// final) when it is not one.
func parse(data []byte, origin string) (*checker, map[string]any, []kit.JSONProblem) {
	c, v, bad := kit.ParseJSON(data)
	if bad != nil {
		return nil, nil, bad
	}
	ch := &checker{JSONChecker: c, origin: origin}
	m, ok := v.(map[string]any)
	if !ok {
		ch.Add("", false, "the file must be a JSON object of metadata members, not %s", kit.JSONKind(v))
		return nil, nil, ch.Problems
	}
	return ch, m, nil
}

func ptr(key string) string { return "/" + kit.EscapePointer(key) }

// str returns v as a string, or adds a problem at p.
func (c *checker) str(p, key string, v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		c.Add(p, false, "%s must be a string, not %s", key, kit.JSONKind(v))
	}
	return s, ok
}

// list returns v as a list of strings, adding a problem at each element
// that is not one (or at p when v is no list).
func (c *checker) list(p, key string, v any) []string {
	l, ok := v.([]any)
	if !ok {
		c.Add(p, false, "%s must be a JSON array of strings, not %s", key, kit.JSONKind(v))
		return nil
	}
	out := make([]string, 0, len(l))
	for i, e := range l {
		s, ok := e.(string)
		if !ok {
			c.Add(fmt.Sprintf("%s/%d", p, i), false, "an entry of %s must be a string, not %s", key, kit.JSONKind(e))
			continue
		}
		out = append(out, s)
	}
	return out
}

// boolean adds a problem at p unless v is true or false.
func (c *checker) boolean(p, key string, v any) {
	if _, ok := v.(bool); !ok {
		c.Add(p, false, "%s must be true or false, not %s", key, kit.JSONKind(v))
	}
}

// absolute parses s as an absolute URL with a host, or adds a problem.
func (c *checker) absolute(p, key, s string) (*url.URL, bool) {
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		c.Add(p, false, "%s %s is not an absolute URL (https://auth.example.com/...)", key, kit.JSONText(s))
		return nil, false
	}
	if u.User != nil {
		c.Add(p, false, "%s %s holds a user name or password; give the URL without them", key, kit.JSONText(s))
		return nil, false
	}
	return u, true
}

// endpoint checks a URL the client sends requests or keys to: absolute,
// https (the RFCs require TLS for each), no fragment.
func (c *checker) endpoint(p, key string, v any) (*url.URL, bool) {
	s, ok := c.str(p, key, v)
	if !ok {
		return nil, false
	}
	u, ok := c.absolute(p, key, s)
	if !ok {
		return nil, false
	}
	if u.Scheme != "https" {
		c.Add(p, false, "%s %s must use https", key, kit.JSONText(s))
		return nil, false
	}
	if u.Fragment != "" || strings.Contains(s, "#") {
		c.Add(p, false, "%s %s must have no fragment (#...)", key, kit.JSONText(s))
		return nil, false
	}
	return u, true
}

// page checks the URL of a page for people: absolute http(s), https
// preferred.
func (c *checker) page(p, key string, v any) {
	s, ok := c.str(p, key, v)
	if !ok {
		return
	}
	u, ok := c.absolute(p, key, s)
	switch {
	case !ok:
	case u.Scheme == "http":
		c.Add(p, true, "%s %s is plain http; give its https URL", key, kit.JSONText(s))
	case u.Scheme != "https":
		c.Add(p, false, "%s %s must be an http(s) URL", key, kit.JSONText(s))
	}
}

// issuer checks an issuer identifier (RFC 8414 §2): https, no query, no
// fragment.
func (c *checker) issuer(p, key string, v any) (*url.URL, bool) {
	s, ok := c.str(p, key, v)
	if !ok {
		return nil, false
	}
	u, ok := c.absolute(p, key, s)
	switch {
	case !ok:
		return nil, false
	case u.Scheme != "https":
		c.Add(p, false, "%s %s must use https (RFC 8414 §2: an issuer identifier is an https URL)", key, kit.JSONText(s))
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(s, "#"):
		c.Add(p, false, "%s %s must have no query or fragment (RFC 8414 §2: an issuer identifier has neither)", key, kit.JSONText(s))
	default:
		return u, true
	}
	return nil, false
}

// algs checks a list of JWS algorithms, which may not name "none".
func (c *checker) algs(p, key string, v any) []string {
	l := c.list(p, key, v)
	if i := slices.Index(l, "none"); i >= 0 {
		if raw, ok := v.([]any); ok {
			i = slices.Index(raw, any("none"))
			c.Add(fmt.Sprintf("%s/%d", p, i), false, "%s must not name \"none\": an unsigned token is no authentication", key)
		}
	}
	return l
}

// jwt checks signed_metadata: a JWT in the JWS compact serialization.
func (c *checker) jwt(p, key string, v any) {
	s, ok := c.str(p, key, v)
	if !ok {
		return
	}
	parts := strings.Split(s, ".")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		c.Add(p, false, "%s must be a signed JWT (header.payload.signature), not %s", key, kit.JSONText(s))
		return
	}
	for _, part := range parts {
		if strings.Trim(part, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			c.Add(p, false, "%s must be a signed JWT of base64url parts, not %s", key, kit.JSONText(s))
			return
		}
	}
}

// languageTag adds a problem at p when tag, the part of member key after
// "#" (RFC 9728 §2.1, "resource_name#de"), is not a well-formed BCP 47
// language tag.
func (c *checker) languageTag(p, key, tag string) {
	if !kit.ValidLanguageTag(tag) {
		c.Add(p, false, "%q is not a language tag (BCP 47, such as de or pt-BR) in %s", tag, kit.JSONText(key))
	}
}

// Origin returns the https origin of the site's URL, https://host[:port]
// in lower case without the default port, "" when u is not an absolute
// http(s) URL. A site.url of http (a staging site) gives the https origin
// of the same host: both RFCs require https of the identifier, so that is
// the only one the document can name.
func Origin(siteURL string) string {
	u, err := url.Parse(siteURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return ""
	}
	if u.Scheme == "http" {
		c := *u
		c.Scheme = "https"
		if c.Port() == "80" {
			c.Host = c.Hostname()
			if strings.Contains(c.Host, ":") {
				c.Host = "[" + c.Host + "]"
			}
		}
		u = &c
	}
	return originOf(u)
}

func originOf(u *url.URL) string {
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if scheme == "https" && port == "443" || scheme == "http" && port == "80" {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
