package validate

import (
	"net/url"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/kinds/kit"
)

// detailsPath matches the path of llms_txt.details, in the manifest or in
// one of its environments: prose of many lines, which lineSafe checks
// character by character (proseSafe).
var detailsPath = lazyre.New(`^(?:environments(?:\.[A-Za-z_][A-Za-z0-9_]*|\["(?:[^"\\]|\\.)*"\])\.)?llms_txt\.details$`)

// proseSafe checks prose of many lines: line breaks and tabs are
// allowed, other control characters, bidirectional controls, U+FEFF and
// tag characters are not, the first one reported at its character. (The
// llms.txt kind checks the rest of the details: kinds/llmstxt.)
func (v *checker) proseSafe(p, s string) {
	for i, r := range s {
		if r == '\n' || r == '\r' || r == '\t' {
			continue
		}
		if msg := unsafeText(string(r), textFree); msg != "" {
			v.add(v.pos.InValue(p, s, i), diag.Error, p, "%s %s", quoteShort(lineAt(s, i)), msg)
			return
		}
	}
}

// lineAt returns the line of s that holds byte offset i.
func lineAt(s string, i int) string {
	start := strings.LastIndexAny(s[:i], "\r\n") + 1
	end := strings.IndexAny(s[i:], "\r\n")
	if end < 0 {
		return s[start:]
	}
	return s[start : i+end]
}

// siteRef checks a URL that resolves against site.url (a licence's URL),
// as the kinds check theirs (kit.CheckSiteRef): an absolute http(s) URL,
// or a relative reference that stays inside the site. It returns the
// parsed URL, nil after an error.
func (v *checker) siteRef(p, s, what string) *url.URL {
	if msg := kit.CheckSiteRef(s, what); msg != "" {
		v.err(p, "%s", msg)
		return nil
	}
	u, _ := url.Parse(s) // CheckSiteRef has parsed it
	return u
}
