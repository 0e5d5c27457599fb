package serverconf

import (
	"regexp"
	"strings"
	"testing"

	"github.com/discgen/discgen/rsl"
	"github.com/discgen/discgen/tree"
)

// TestRightsDocumentType checks that every format serves the published RSL
// document, and it alone, as application/rsl+xml (RSL 1.0's media type),
// where its extension would give application/xml; and that ContentType,
// which verify expects, says the same.
func TestRightsDocumentType(t *testing.T) {
	tr := tree.Tree{
		"licenses/site.xml": {Data: []byte("<rsl/>")},
		"other.xml":         {Data: []byte("<x/>")},
		"robots.txt":        {Data: []byte("User-agent: *\nDisallow:\n")},
	}
	r := Rights{License: "https://www.example.org/licenses/site.xml", Document: "licenses/site.xml"}
	pub, sep, err := RenderAccess(tr, Kinds(), Access{Rights: r})
	if err != nil {
		t.Fatal(err)
	}
	rule := func(path, ct string) map[string]string {
		q := regexp.QuoteMeta
		return map[string]string{
			HeadersFile:  `(?m)^` + q(path) + `\n  Content-Type: ` + q(ct) + `\n`,
			HtaccessFile: q(`<If "%{REQUEST_URI} == '`+path+`'">`) + `\n    ForceType "` + q(ct) + `"\n`,
			NginxFile:    q(`location = `+path+` {`) + `\n    types \{ \}\n    default_type "` + q(ct) + `";\n`,
			CaddyFile:    `\n\tpath ` + q(path) + `\n\}\nheader @discgen_\d+ \{\n\tContent-Type "` + q(ct) + `"\n`,
		}
	}
	files := map[string]string{}
	for name, e := range pub {
		files[name] = string(e.Data)
	}
	for name, e := range sep {
		files[name] = string(e.Data)
	}
	for _, c := range []struct{ path, ct string }{{"/licenses/site.xml", rsl.MediaType}, {"/other.xml", "application/xml"}} {
		for name, re := range rule(c.path, c.ct) {
			if !regexp.MustCompile(re).MatchString(files[name]) {
				t.Errorf("%s: no rule giving %s %s:\n%s", name, c.path, c.ct, files[name])
			}
		}
	}
	for p, want := range map[string]string{"licenses/site.xml": rsl.MediaType, "other.xml": "application/xml"} {
		if got, err := r.ContentType(tr, p); got != want || err != nil {
			t.Errorf("ContentType(%s) = %q, %v; want %q", p, got, err, want)
		}
	}
	// Without a document, the extension decides.
	plain, _, _ := RenderAccess(tr, []Kind{Headers}, Access{Rights: Rights{License: r.License}})
	if n := strings.Count(string(plain[HeadersFile].Data), "Content-Type: "+rsl.MediaType); n != 0 {
		t.Errorf("_headers names %s %d times without a document", rsl.MediaType, n)
	}
}
