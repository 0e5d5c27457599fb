package serverconf

import (
	"testing"

	"github.com/discgen/discgen/tree"
)

// TestHTMLPageType: the site's own page of .html (the policy page) is
// served as HTML, so a browser shows it; an .html file in an autodisc/
// directory (a tenant's x- file) or under /.well-known/ keeps
// application/octet-stream, which no browser renders.
func TestHTMLPageType(t *testing.T) {
	tr := tree.Tree{}
	for p, want := range map[string]string{
		"crawler-policy.html":       "text/html; charset=utf-8",
		"about/Policy.HTML":         "text/html; charset=utf-8",
		"autodisc/x-page.html":      octetStream,
		"~alice/autodisc/x-a.html":  octetStream,
		".well-known/page.html":     octetStream,
		".well-known/sub/page.html": octetStream,
	} {
		tr[p] = tree.Entry{Data: []byte("x")}
		if got, err := ContentType(tr, p); err != nil || got != want {
			t.Errorf("%s: %q (%v), want %q", p, got, err, want)
		}
	}
}
