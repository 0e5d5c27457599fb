// Package rsl checks RSL documents: Really Simple Licensing 1.0
// (rslstandard.org, RSL-SPEC-1.0, Recommendation of 2025-11-06, with its
// errata to 2026-05-27), the XML file a robots.txt License: line and a
// Link header with rel="license" point at.
//
// Check reports what the specification requires of a licence file, each
// problem at its line and column:
//
//   - well-formed XML 1.0, with no document type declaration (a licence
//     file needs none, and discgen expands no entities it could declare);
//   - the root element rsl, in the namespace https://rslstandard.org/rsl,
//     with one or more content elements in it; or an RSS 2.0 licence feed
//     (rslstandard.org, "File Format: License Feeds": the root rss with
//     version="2.0", rsl:content elements in its channel or its items),
//     which a License line may name as well;
//   - each content element with a url attribute that is an absolute
//     http(s) URL or a path starting with "/" (RFC 9309 patterns, "*" and
//     a final "$"); its encrypted attribute, where given, a boolean (true
//     or false), and its lastmod an RFC 3339 date-time;
//   - in each content element, a license element, or a server attribute
//     naming the licence server that grants the licence: the
//     specification lets a content element defer to its server, and a
//     crawler operator can act on either, but not on neither (our choice
//     where the specification leaves one);
//   - permits and prohibits with a type attribute of usage, user or geo;
//   - absolute http(s) URLs where the specification asks for a URL: the
//     server attribute, and the text of standard and custom;
//   - an amount's currency attribute an ISO 4217 alphabetic code: three
//     capital letters (an error otherwise), found in the dated copy of
//     the ISO 4217 list discgen ships (iso4217.txt; a warning otherwise,
//     as a code may have been added since).
//
// Usage categories are not checked: the errata have changed them without
// changing the version, and a reader ignores what it does not know.
package rsl

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"
)

// Version names the specification Check follows.
const Version = "RSL 1.0, RSL-SPEC-1.0 of 2025-11-06"

// Namespace is the RSL namespace.
const Namespace = "https://rslstandard.org/rsl"

// MediaType is an RSL document's media type, which the Link header names.
const MediaType = "application/rsl+xml"

// Problem is one way a document fails the specification, at its line and
// column (1-based).
type Problem struct {
	Line, Col int
	Message   string
	// Warning marks what a reader may still act on: a currency code of
	// ISO 4217's form that the shipped list does not hold (it may have
	// been added since the list's date).
	Warning bool
}

func (p Problem) String() string { return fmt.Sprintf("%d:%d: %s", p.Line, p.Col, p.Message) }

// Errors returns the problems that are not warnings.
func Errors(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if !p.Warning {
			out = append(out, p)
		}
	}
	return out
}

// MaxProblems bounds the problems Check reports.
const MaxProblems = 100

// element is an open element: its name, where it started and what it
// holds so far.
type element struct {
	name       xml.Name
	content    bool // an RSL content element where the document puts one
	line, col  int
	text       strings.Builder
	licenses   int
	server     bool
	textLine   int
	textColumn int
}

// Check reads an RSL document and returns its problems; none when it is a
// document RSL 1.0 readers can act on.
func Check(data []byte) []Problem {
	var out []Problem
	add := func(line, col int, format string, args ...any) {
		if len(out) < MaxProblems {
			out = append(out, Problem{Line: line, Col: col, Message: fmt.Sprintf(format, args...)})
		}
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		return nil, &charsetError{label}
	}
	var stack []*element
	roots, contents := 0, 0
	feed := false // the root is rss: a licence feed
	line, col := 1, 1
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			var ce *charsetError
			switch {
			case errors.As(err, &ce):
				add(line, col, "%v", ce)
			case errors.As(err, &se):
				// At the start of the token that failed.
				add(line, col, "not well-formed XML: %s", se.Msg)
			default:
				add(line, col, "not well-formed XML: %v", err)
			}
			return out
		}
		switch t := tok.(type) {
		case xml.StartElement:
			e := &element{name: t.Name, line: line, col: col}
			depth := len(stack)
			switch {
			case depth == 0:
				roots++
				switch {
				case t.Name.Local == "rsl" && t.Name.Space == Namespace:
				case t.Name.Local == "rss" && t.Name.Space == "":
					feed = true
					if v := attr(t, "version"); v != "2.0" {
						add(line, col, "rss version %q: an RSL licence feed is RSS 2.0 (version=\"2.0\")", v)
					}
				default:
					add(line, col, "the root element is %s; an RSL document's root is rsl in the namespace %s (xmlns=%q)", describe(t.Name), Namespace, Namespace)
					return out
				}
			case t.Name.Space == Namespace && t.Name.Local == "content":
				switch {
				case !feed && depth == 1, feed && inFeed(stack):
					e.content = true
					contents++
					checkContent(t, line, col, add)
					e.server = attr(t, "server") != ""
				case feed:
					add(line, col, "rsl:content stands in %s; in a feed it stands in the channel or an item", stack[depth-1].name.Local)
				}
			case t.Name.Space == Namespace && (t.Name.Local == "permits" || t.Name.Local == "prohibits"):
				switch v := attr(t, "type"); v {
				case "usage", "user", "geo":
				case "":
					add(line, col, "%s needs a type attribute: usage, user or geo", t.Name.Local)
				default:
					add(line, col, "%s type %q is not usage, user or geo", t.Name.Local, v)
				}
			case t.Name.Space == Namespace && t.Name.Local == "amount":
				if v, ok := attrOK(t, "currency"); ok {
					switch {
					case !isCurrencyCode(v):
						add(line, col, "amount currency %q is not an ISO 4217 code (three capital letters, such as USD or EUR)", short(v))
					case Currencies()[v] == "" && len(out) < MaxProblems:
						out = append(out, Problem{Line: line, Col: col, Warning: true,
							Message: fmt.Sprintf("amount currency %q is not in the ISO 4217 list of %s discgen ships: a reader that knows the list may not know it", v, CurrencyListDate())})
					}
				}
			case t.Name.Space == Namespace && t.Name.Local == "license":
				if stack[depth-1].content {
					stack[depth-1].licenses++
				}
			}
			stack = append(stack, e)
		case xml.CharData:
			if n := len(stack); n > 0 {
				e := stack[n-1]
				if e.text.Len() == 0 && len(bytes.TrimSpace(t)) > 0 {
					e.textLine, e.textColumn = textStart(line, col, t)
				}
				if e.text.Len() < 8<<10 {
					e.text.Write(t)
				}
			}
		case xml.EndElement:
			e := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if e.name.Space == Namespace {
				switch e.name.Local {
				case "content":
					if e.content && e.licenses == 0 && !e.server {
						add(e.line, e.col, "content has no license element (and no server attribute naming a licence server): it grants nothing a reader can act on")
					}
				case "standard", "custom":
					s := strings.TrimSpace(e.text.String())
					l, c := e.textLine, e.textColumn
					if l == 0 {
						l, c = e.line, e.col
					}
					if !absoluteURL(s) {
						add(l, c, "%s must hold an absolute http(s) URL, not %q", e.name.Local, short(s))
					}
				}
			}
		case xml.Directive:
			if bytes.HasPrefix(bytes.TrimSpace(t), []byte("DOCTYPE")) {
				add(line, col, "a document type declaration is not allowed: an RSL document needs none")
				return out
			}
		}
		line, col = d.InputPos()
	}
	if roots == 0 {
		add(line, col, "no root element: an RSL document is <rsl xmlns=%q> with content elements", Namespace)
	} else if contents == 0 && feed {
		add(1, 1, "the feed has no rsl:content element in its channel or an item: an RSL licence feed licenses content with one or more")
	} else if contents == 0 {
		add(1, 1, "rsl has no content element: RSL 1.0 requires one or more")
	}
	return out
}

// inFeed reports whether an element opened inside stack stands where a
// licence feed puts rsl:content: in the channel of the rss root, or in an
// item of that channel.
func inFeed(stack []*element) bool {
	channel := func(e *element) bool { return e.name.Space == "" && e.name.Local == "channel" }
	switch len(stack) {
	case 2:
		return channel(stack[1])
	case 3:
		return channel(stack[1]) && stack[2].name.Space == "" && stack[2].name.Local == "item"
	}
	return false
}

func checkContent(t xml.StartElement, line, col int, add func(int, int, string, ...any)) {
	u, ok := attrOK(t, "url")
	switch {
	case !ok:
		add(line, col, "content needs a url attribute: the URL or path (from \"/\") of the assets it licenses")
	case strings.HasPrefix(u, "/"):
		if strings.ContainsAny(u, " \t") {
			add(line, col, "content url %q holds white space", short(u))
		}
	case !absoluteURL(u):
		add(line, col, "content url %q is neither an absolute http(s) URL nor a path starting with \"/\"", short(u))
	}
	if s, ok := attrOK(t, "server"); ok && !absoluteURL(s) {
		add(line, col, "content server %q must be an absolute http(s) URL", short(s))
	}
	if v, ok := attrOK(t, "encrypted"); ok && v != "true" && v != "false" {
		add(line, col, "content encrypted %q is not a boolean: true or false", short(v))
	}
	if v, ok := attrOK(t, "lastmod"); ok && !dateTime(v) {
		add(line, col, "content lastmod %q is not an RFC 3339 date-time, such as 2025-11-06T10:00:00Z", short(v))
	}
}

// dateTime reports whether s is an RFC 3339 date-time (section 5.6: a
// full date, "T", a time with seconds and a zone offset or "Z").
func dateTime(s string) bool {
	if len(s) < len("2006-01-02T15:04:05Z") || (s[10] != 'T' && s[10] != 't') {
		return false
	}
	_, err := time.Parse(time.RFC3339, strings.ToUpper(s))
	return err == nil
}

func attr(t xml.StartElement, name string) string {
	v, _ := attrOK(t, name)
	return v
}

func attrOK(t xml.StartElement, name string) (string, bool) {
	for _, a := range t.Attr {
		if a.Name.Space == "" && a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// absoluteURL reports whether s is an absolute http(s) URL with a host.
func absoluteURL(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t\r\n") {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

func describe(n xml.Name) string {
	if n.Space == "" {
		return n.Local + " in no namespace"
	}
	return fmt.Sprintf("%s in the namespace %s", n.Local, n.Space)
}

func short(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// textStart returns where the first non-space character of text, which
// starts at line:col, stands.
func textStart(line, col int, text []byte) (int, int) {
	for _, c := range text {
		switch c {
		case '\n':
			line, col = line+1, 1
		case ' ', '\t', '\r':
			col++
		default:
			return line, col
		}
	}
	return line, col
}

// charsetError is a declared encoding other than UTF-8.
type charsetError struct{ label string }

func (e *charsetError) Error() string {
	return fmt.Sprintf("the document declares the encoding %q; an RSL document discgen publishes must be UTF-8", e.label)
}
