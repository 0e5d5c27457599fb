package mcp

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/kinds/kit"
)

// The patterns of the extension's schema.json.
var (
	serverName  = lazyre.New(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)
	remoteURL   = lazyre.New(`^(https?://[^\s]+|\{[a-zA-Z_][a-zA-Z0-9_]*\}[^\s]*)$`)
	hasVariable = lazyre.New(`\{[a-zA-Z_][a-zA-Z0-9_]*\}`)
)

// CheckCard checks a server card by the extension's schema, each problem
// at its value; a secret header with a value of its own is refused.
func CheckCard(data []byte) []kit.JSONProblem {
	c, m, bad := parseCard(data)
	if bad != nil {
		return bad
	}
	c.check(m)
	return c.Sorted()
}

// checkCardNamed checks a local card whose manifest entry is named name:
// a title other than name is a warning, as clients show the title.
func checkCardNamed(data []byte, name string) []kit.JSONProblem {
	c, m, bad := parseCard(data)
	if bad != nil {
		return bad
	}
	c.check(m)
	if t, ok := m["title"].(string); ok && t != name {
		c.Add("/title", true, "title %s is not the manifest's name %s: clients show the title", kit.JSONText(t), kit.JSONText(name))
	}
	return c.Sorted()
}

// card is the checker of one card.
type card struct{ *kit.JSONChecker }

// parseCard reads data as a card, an object; bad holds the final problems
// when it is not one.
func parseCard(data []byte) (card, map[string]any, []kit.JSONProblem) {
	jc, v, bad := kit.ParseJSON(data)
	if bad != nil {
		return card{}, nil, bad
	}
	c := card{jc}
	m, ok := v.(map[string]any)
	if !ok {
		c.Add("", false, "the file must be a server card, a JSON object, not %s", kit.JSONKind(v))
		return card{}, nil, c.Problems
	}
	return c, m, nil
}

func (c card) str(p, key string, v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		c.Add(p, false, "%s must be a string, not %s", key, kit.JSONKind(v))
	}
	return s, ok
}

// length checks a string of min to max characters.
func (c card) length(p, key string, v any, min, max int) {
	s, ok := c.str(p, key, v)
	if n := utf8.RuneCountInString(s); ok && (n < min || n > max) {
		c.Add(p, false, "%s must be %d to %d characters, not %d", key, min, max, n)
	}
}

// uri checks an absolute URI (format "uri").
func (c card) uri(p, key string, v any) {
	s, ok := c.str(p, key, v)
	if !ok {
		return
	}
	if u, err := url.Parse(s); err != nil || !u.IsAbs() {
		c.Add(p, false, "%s %s is not an absolute URI", key, kit.JSONText(s))
	}
}

func (c card) list(p, key string, v any) []any {
	l, ok := v.([]any)
	if !ok {
		c.Add(p, false, "%s must be a list, not %s", key, kit.JSONKind(v))
	}
	return l
}

// check checks the members of card m.
func (c card) check(m map[string]any) {
	for _, k := range []string{"$schema", "name", "version", "description"} {
		if _, ok := m[k]; !ok {
			c.Add("", false, "%s is missing: a server card requires $schema (%s), name, version and description", k, SchemaURL)
		}
	}
	for k, v := range m {
		p := "/" + kit.EscapePointer(k)
		switch k {
		case "$schema":
			if s, ok := c.str(p, k, v); ok && s != SchemaURL {
				c.Add(p, false, "%s is not the server card schema of the draft: %s", kit.JSONText(s), SchemaURL)
			}
		case "name":
			if s, ok := c.str(p, k, v); ok && (!serverName.MatchString(s) || len(s) < 3 || len(s) > 200) {
				c.Add(p, false, "%s is not a server name in reverse-DNS form with one \"/\" (org.fict/search)", kit.JSONText(s))
			}
		case "version":
			c.length(p, k, v, 0, 255)
		case "description", "title":
			c.length(p, k, v, 1, 100)
		case "websiteUrl":
			c.uri(p, k, v)
		case "_meta":
			c.Object(p, v)
		case "repository":
			if o, ok := c.Object(p, v); ok {
				for _, r := range []string{"source", "url"} {
					if _, ok := o[r]; !ok {
						c.Add(p, false, "repository.%s is missing", r)
					}
				}
				if u, ok := o["url"]; ok {
					c.uri(p+"/url", "repository.url", u)
				}
			}
		case "icons":
			for i, e := range c.list(p, k, v) {
				ip := fmt.Sprintf("%s/%d", p, i)
				if o, ok := c.Object(ip, e); ok {
					if src, ok := o["src"]; ok {
						c.uri(ip+"/src", "src", src)
					} else {
						c.Add(ip, false, "an icon's src is missing")
					}
					if t, ok := o["theme"]; ok && t != "light" && t != "dark" {
						c.Add(ip+"/theme", false, "theme %s is not light or dark", kit.JSONText(t))
					}
				}
			}
		case "remotes":
			for i, e := range c.list(p, k, v) {
				c.remote(fmt.Sprintf("%s/%d", p, i), e)
			}
		}
	}
}

// remote checks one remote endpoint.
func (c card) remote(p string, v any) {
	o, ok := c.Object(p, v)
	if !ok {
		return
	}
	t, ok := o["type"]
	switch {
	case !ok:
		c.Add(p, false, "a remote's type is missing: sse or streamable-http")
	case t != "sse" && t != "streamable-http":
		c.Add(p+"/type", false, "%s is not a remote transport: sse or streamable-http", kit.JSONText(t))
	}
	if u, ok := o["url"]; !ok {
		c.Add(p, false, "a remote's url is missing")
	} else if s, ok := c.str(p+"/url", "url", u); ok {
		switch {
		case !remoteURL.MatchString(s):
			c.Add(p+"/url", false, "%s is not an http(s) URL or a {variable} template", kit.JSONText(s))
		case strings.HasPrefix(s, "http://"):
			c.Add(p+"/url", true, "%s is plain http: the draft allows it for local development only", kit.JSONText(s))
		}
	}
	if h, ok := o["headers"]; ok {
		for i, e := range c.list(p+"/headers", "headers", h) {
			hp := fmt.Sprintf("%s/headers/%d", p, i)
			ho, ok := c.Object(hp, e)
			if !ok {
				continue
			}
			if _, ok := ho["name"]; !ok {
				c.Add(hp, false, "a header's name is missing")
			}
			val, hasValue := ho["value"].(string)
			if ho["isSecret"] == true && hasValue && !hasVariable.MatchString(val) {
				c.Add(hp+"/value", false, "a secret header's value is published as it is: a card is public (the draft's security considerations); give a {variable} the user fills in")
			}
		}
	}
}
