// Package sitemap reads a sitemap or a sitemap index (sitemaps.org
// protocol 0.9) the way a crawler does, and checks it against the
// protocol's limits: a file lists at most MaxEntries URLs (an index at
// most MaxEntries sitemaps) and is at most MaxBytes uncompressed; an
// index lists sitemaps, never another index; each loc is an absolute
// http(s) URL of fewer than MaxLocLen characters.
//
// The file is hostile input: it is read as a stream, never past MaxBytes
// of XML (after gunzip, for a .gz sitemap), never deeper than MaxDepth
// elements, and reading stops at the first problem that makes the rest
// meaningless (not XML, too large, too many entries). No entity, DTD or
// external reference is followed: encoding/xml expands none.
//
// Refs checks the Sitemap: lines a robots.txt or manifest names: each an
// absolute http(s) URL, on the site's host (another host is allowed only
// with cross-submission, so it is a warning), and named once.
//
// Walk reads a sitemap and the sitemaps of an index through an Opener;
// CheckDir walks those a robots.txt names in a built output tree
// (validate --output), without following a link out of it or waiting on
// a FIFO, and gives each problem as a positioned diagnostic.
package sitemap

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// Limits of the sitemaps.org protocol, and of reading.
const (
	MaxEntries = 50_000
	MaxBytes   = 50 * 1024 * 1024 // 52,428,800 bytes, uncompressed
	MaxLocLen  = 2048
	// MaxDepth bounds element nesting: urlset/url/loc is 3 deep and the
	// image, video and news extensions go no deeper than 5.
	MaxDepth = 16
	// MaxProblems bounds the problems reported for one file.
	MaxProblems = 100
)

// Namespace is the protocol's XML namespace.
const Namespace = "http://www.sitemaps.org/schemas/sitemap/0.9"

// Kind is what a file is: a sitemap (urlset) or an index (sitemapindex).
type Kind string

const (
	URLSet Kind = "urlset"
	Index  Kind = "sitemapindex"
)

// Problem is one thing wrong, at a line and column of the (uncompressed)
// file; Warning marks one a crawler works around.
type Problem struct {
	Line, Col int
	Msg       string
	Warning   bool
}

func (p Problem) String() string {
	if p.Line == 0 {
		return p.Msg
	}
	return fmt.Sprintf("%d:%d: %s", p.Line, p.Col, p.Msg)
}

// Loc is an entry's loc and where it stands.
type Loc struct {
	URL       string
	Line, Col int
}

// Result is what Read found.
type Result struct {
	Kind    Kind
	Entries int   // url or sitemap elements
	Locs    []Loc // an index's sitemaps (a urlset's are not kept)
	// Problems, in file order, at most MaxProblems and one that counts
	// the rest.
	Problems []Problem
	more     int
}

// Failed reports whether a problem is not a warning.
func (r *Result) Failed() bool {
	for _, p := range r.Problems {
		if !p.Warning {
			return true
		}
	}
	return false
}

func (r *Result) add(line, col int, warn bool, format string, args ...any) {
	if len(r.Problems) >= MaxProblems {
		r.more++
		return
	}
	r.Problems = append(r.Problems, Problem{Line: line, Col: col, Msg: fmt.Sprintf(format, args...), Warning: warn})
}

func (r *Result) finish() {
	if r.more > 0 {
		r.Problems = append(r.Problems, Problem{Msg: fmt.Sprintf("%d more problems not shown (at most %d are reported per file)", r.more, MaxProblems)})
	}
}

// Read reads a sitemap or sitemap index, gzip-compressed or not, and
// checks it.
func Read(r io.Reader) (res Result) {
	defer res.finish()
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			res.add(0, 0, false, "not gzip: %v", err)
			return res
		}
		defer zr.Close()
		r = zr
	} else {
		r = br
	}
	lr := &capped{r: r, left: MaxBytes}
	dec := xml.NewDecoder(lr)
	dec.Strict = true
	dec.CharsetReader = func(cs string, in io.Reader) (io.Reader, error) {
		if strings.EqualFold(cs, "utf-8") || strings.EqualFold(cs, "us-ascii") {
			return in, nil
		}
		return nil, fmt.Errorf("encoding %q: the protocol asks for UTF-8", cs)
	}
	readXML(dec, lr, &res)
	return res
}

// capped reads at most left bytes, and says so when there are more.
type capped struct {
	r    io.Reader
	left int64
	over bool
}

var errTooLarge = errors.New("too large")

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		if n, _ := io.ReadFull(c.r, one[:]); n > 0 {
			c.over = true
			return 0, errTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

func readXML(dec *xml.Decoder, lr *capped, res *Result) {
	depth := 0
	var entry, inLoc bool
	var loc strings.Builder
	var locLine, locCol, entryLine, entryCol int
	for {
		line, col := dec.InputPos()
		tok, err := dec.Token()
		if err != nil {
			if err == io.EOF {
				if res.Kind == "" {
					res.add(line, col, false, "empty: no urlset or sitemapindex element")
				}
				return
			}
			if lr.over {
				res.add(line, col, false, "larger than %d bytes uncompressed, the protocol's limit", MaxBytes)
				return
			}
			res.add(line, col, false, "not XML: %v", unwrapXML(err))
			return
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > MaxDepth {
				res.add(line, col, false, "elements nest more than %d deep", MaxDepth)
				return
			}
			name := t.Name
			switch depth {
			case 1:
				switch name.Local {
				case string(URLSet), string(Index):
					res.Kind = Kind(name.Local)
				default:
					res.add(line, col, false, "the root element is <%s>, not <urlset> (a sitemap) or <sitemapindex> (an index)", name.Local)
					return
				}
				if name.Space != Namespace {
					res.add(line, col, true, "<%s> is not in the namespace %s", name.Local, Namespace)
				}
			case 2:
				want := "url"
				if res.Kind == Index {
					want = "sitemap"
				}
				if name.Local == want && (name.Space == Namespace || name.Space == "") {
					res.Entries++
					if res.Entries > MaxEntries {
						res.add(line, col, false, "more than %d <%s> entries, the protocol's limit: split the file and list the parts in a sitemap index", MaxEntries, want)
						return
					}
					entry, entryLine, entryCol = true, line, col
					loc.Reset()
					locLine = 0
				} else if res.Kind == Index && name.Local == "url" {
					res.add(line, col, false, "a <url> in a sitemap index: an index lists <sitemap> entries only")
				}
			case 3:
				if entry && name.Local == "loc" && (name.Space == Namespace || name.Space == "") {
					inLoc, locLine, locCol = true, line, col
				}
			}
		case xml.CharData:
			if inLoc && loc.Len() <= MaxLocLen {
				loc.Write(t)
			}
		case xml.EndElement:
			if depth == 3 && inLoc {
				inLoc = false
			}
			if depth == 2 && entry {
				entry = false
				checkLoc(res, strings.TrimSpace(loc.String()), locLine, locCol, entryLine, entryCol)
			}
			depth--
		}
	}
}

func checkLoc(res *Result, u string, line, col, eline, ecol int) {
	if line == 0 {
		res.add(eline, ecol, false, "an entry without <loc>")
		return
	}
	if len(u) >= MaxLocLen {
		res.add(line, col, false, "the <loc> is %d characters or more; the protocol allows fewer than %d", MaxLocLen, MaxLocLen)
		return
	}
	pu, err := url.Parse(u)
	if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
		res.add(line, col, false, "<loc> %q is not an absolute http(s) URL", u)
		return
	}
	if res.Kind == Index {
		res.Locs = append(res.Locs, Loc{URL: u, Line: line, Col: col})
	}
}

// unwrapXML shortens encoding/xml's messages, which repeat the line.
func unwrapXML(err error) string {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return se.Msg
	}
	return err.Error()
}

// Ref is a Sitemap: line a robots.txt or manifest names.
type Ref struct {
	URL string
	At  string // where it is named, for messages ("robots.txt:3", a manifest path)
}

// RefProblem is a problem of the Ref at Index.
type RefProblem struct {
	Index   int
	Kind    RefKind
	Msg     string
	Warning bool
}

// RefKind is what a RefProblem is about.
type RefKind int

const (
	NotAbsolute RefKind = iota // an error
	OtherHost                  // a warning
	Duplicate                  // a warning
)

// Refs checks the Sitemap: references of a site whose URL is site:
// absolute http(s), on the site's host (a warning otherwise: crawlers
// accept another host only where that host's robots.txt names the
// sitemap, sitemaps.org "Sitemaps & Cross Submits"), and each named once
// (a warning for the later ones).
func Refs(site string, refs []Ref) []RefProblem {
	var out []RefProblem
	su, _ := url.Parse(site)
	first := map[string]string{}
	for i, r := range refs {
		u, err := url.Parse(r.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			out = append(out, RefProblem{Index: i, Kind: NotAbsolute, Msg: fmt.Sprintf("Sitemap %q is not an absolute http(s) URL", r.URL)})
			continue
		}
		if su != nil && su.Host != "" && !strings.EqualFold(u.Hostname(), su.Hostname()) {
			out = append(out, RefProblem{Index: i, Kind: OtherHost, Warning: true, Msg: fmt.Sprintf("Sitemap %s is on %s, not the site's host %s: crawlers read it only if %s's own robots.txt names it", r.URL, u.Hostname(), su.Hostname(), u.Hostname())})
		}
		key := strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host) + u.RequestURI()
		if at, dup := first[key]; dup {
			out = append(out, RefProblem{Index: i, Kind: Duplicate, Warning: true, Msg: fmt.Sprintf("Sitemap %s is named twice (first at %s): drop this line", r.URL, at)})
			continue
		}
		first[key] = r.At
	}
	return out
}
