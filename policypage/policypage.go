// Package policypage renders the page a host's customers read about the
// crawlers (design section 16, the manifest's policy_page): each crawler
// of the dated catalogue and each the manifest names, with its operator
// and purpose, what it may fetch and what it may use, and whether the
// server refuses it, slows it or checks its address. generate.PolicyPage
// computes the page from the manifest; this package only writes it.
//
// The page is one HTML document with its style sheet inline: no script,
// no external resource, every value escaped by html/template, and a
// Content-Security-Policy that lets a browser run no script and load
// nothing, so that it reads the same with scripts off. Its bytes depend
// only on the Page: it is dated by the crawler catalogue, not by the day
// of the build, and carries a revision of what it says, so that a build
// on another day writes the same page.
package policypage

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"html/template"
	"io"
	"sync"
)

// Page is what the page says.
type Page struct {
	SiteURL string
	// Catalogue is the day the crawler catalogue was compiled
	// (YYYY-MM-DD), the page's date. Revision names what the page says:
	// Rendered sets it, from the page's bytes without it.
	Catalogue, Revision string
	// Refused, Throttled and Verified name the crawlers the server
	// refuses somewhere, slows, and checks by address, for the summary.
	Refused, Throttled, Verified []string
	Sections                     []Section
	// Others is what a crawler no group names reads: the "*" group's
	// rules, or everything when there is none.
	Others Crawler
}

// Section is the crawlers of one purpose: a catalogue preset, or those
// the manifest names that the catalogue does not list.
type Section struct {
	ID, Title, About string
	Crawlers         []Crawler
}

// Crawler is one crawler's row.
type Crawler struct {
	Name, Operator string
	// Checked is the day the catalogue's facts about it were checked
	// against its source; "" when nobody did or it is not listed.
	Checked string
	// Fetch is "all", "none" or "some"; "never" for a control token,
	// which fetches nothing. Rules are the rules that decide
	// ("Disallow: /private/"), in the order of the manifest.
	Fetch string
	Rules []string
	// Reading is, where the operator documents that its crawler reads
	// robots.txt otherwise than RFC 9309 (it obeys another of its
	// crawlers' groups where no group names it), how it reads it and
	// where that is documented; for a control token, what its group
	// means. Controls is a control token's answer: what use of the
	// content its operator's crawlers fetch its rules allow ("use
	// allowed", "use refused", "use refused where the rules disallow").
	Reading, Controls string
	// Use is the usage preferences it reads ("train_ai=no, search=yes"),
	// "none stated" when there are none; UsePaths those of paths.
	Use      string
	UsePaths []string
	// Refused: the server answers 403 where the rules disallow it.
	// Throttle is its pace ("1/s, burst 10") when the server slows it.
	// Verified: a request that claims it from outside its operator's
	// published addresses is refused.
	Refused  bool
	Throttle string
	Verified bool
}

// Status is the row's status words, for the page: "refused",
// "throttled", "verified by address", or "none".
func (c Crawler) Status() []string {
	var s []string
	if c.Refused {
		s = append(s, "refused")
	}
	if c.Throttle != "" {
		s = append(s, "throttled")
	}
	if c.Verified {
		s = append(s, "verified")
	}
	return s
}

//go:embed page.html
var pageHTML string

var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page.html").Option("missingkey=error").Parse(pageHTML))
})

// Render writes the page as it is.
func Render(w io.Writer, p *Page) error {
	return page().Execute(w, p)
}

// Rendered returns the page with its Revision set: the first 12
// hexadecimal digits of the SHA-256 of the page rendered without one, so
// that it changes exactly when what the page says does.
func Rendered(p *Page) ([]byte, error) {
	q := *p
	q.Revision = ""
	var b bytes.Buffer
	if err := Render(&b, &q); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b.Bytes())
	q.Revision = hex.EncodeToString(sum[:6])
	b.Reset()
	if err := Render(&b, &q); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
