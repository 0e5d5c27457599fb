package verify

import (
	"net/http"
	"strings"
	"testing"

	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tree"
)

// TestVerifyAIMediaTypes: llms.txt must come as text/markdown with its
// charset, the api-catalog as a linkset with RFC 9727's profile.
func TestVerifyAIMediaTypes(t *testing.T) {
	tr := sampleTree()
	tr["llms.txt"] = tree.Entry{Data: []byte("# Example\n")}
	tr[".well-known/api-catalog"] = tree.Entry{Data: []byte("{\n  \"linkset\": []\n}\n")}
	// serve sends the two files with the types serverconf gives them,
	// except path, which gets ct, and the home page with the link.
	serve := func(path, ct string) func(http.ResponseWriter, *http.Request) bool {
		return func(w http.ResponseWriter, r *http.Request) bool {
			p := strings.TrimPrefix(r.URL.Path, "/")
			if p == "" {
				w.Header().Set("Link", serverconf.HomeLinks(tr)[0])
				w.Write([]byte("<!doctype html>"))
				return true
			}
			if p != "llms.txt" && p != ".well-known/api-catalog" {
				return false
			}
			typ, err := serverconf.ContentType(tr, p)
			if err != nil {
				t.Fatal(err)
			}
			if p == path {
				typ = ct
			}
			for _, l := range serverconf.FileLinks(tr, p) {
				w.Header().Add("Link", l)
			}
			w.Header().Set("Content-Type", typ)
			w.Write(tr[p].Data)
			return true
		}
	}
	for _, c := range []struct {
		name, path, ct, want string
	}{
		{"correct", "", "", ""},
		{"llms.txt as text/plain", "llms.txt", "text/plain; charset=utf-8", "Content-Type text/plain; charset=utf-8, want text/markdown; charset=utf-8"},
		{"llms.txt without charset", "llms.txt", "text/markdown", "has no charset"},
		{"api-catalog without profile", ".well-known/api-catalog", "application/linkset+json", "has no profile"},
		{"api-catalog with another profile", ".well-known/api-catalog", `application/linkset+json; profile="https://example.org/p"`, `want profile "https://www.rfc-editor.org/info/rfc9727"`},
		{"api-catalog as JSON", ".well-known/api-catalog", "application/json", "want application/linkset+json"},
		{"api-catalog, profile unquoted", ".well-known/api-catalog", "application/linkset+json;profile=https://www.rfc-editor.org/info/rfc9727", "cannot be read"},
		{"api-catalog, other spacing", ".well-known/api-catalog", `application/linkset+json;profile="https://www.rfc-editor.org/info/rfc9727"`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := problems(run(t, true, tr, serve(c.path, c.ct), Options{}))
			for p, g := range got {
				if c.want == "" || p != "/"+c.path || !strings.Contains(g, c.want) {
					t.Errorf("%s: problems %q, want %q on /%s", p, g, c.want, c.path)
				}
			}
			if c.want != "" && got["/"+c.path] == "" {
				t.Errorf("/%s: no problem, want %q", c.path, c.want)
			}
		})
	}
}

// TestVerifyHomeLink: with an api-catalog, "/" must carry the RFC 9727
// Link header, alone or among others.
func TestVerifyHomeLink(t *testing.T) {
	tr := sampleTree()
	tr[".well-known/api-catalog"] = tree.Entry{Data: []byte("{\n  \"linkset\": []\n}\n")}
	for _, c := range []struct {
		name   string
		status int
		links  []string
		want   string // a problem on "/", or "" for none
	}{
		{"exact", 200, []string{`</.well-known/api-catalog>; rel="api-catalog"`}, ""},
		{"among others", 200, []string{`<https://cdn.example/x.css>; rel=preload; as="style, font", <./.well-known/api-catalog>;rel="alternate API-catalog"`}, ""},
		{"two fields", 200, []string{`</style.css>; rel=preload`, `</.well-known/api-catalog>; rel=api-catalog`}, ""},
		{"missing", 200, nil, "no Link header"},
		{"other relation", 200, []string{`</.well-known/api-catalog>; rel="service-desc"`}, "no Link header"},
		{"other target", 200, []string{`</api-catalog>; rel="api-catalog"`}, "no Link header"},
		{"comma inside a quoted rel is not a separator", 200, []string{`</x>; title="a, </.well-known/api-catalog>; rel=api-catalog"`}, "no Link header"},
		{"home page missing", 404, nil, "status 404"},
		{"home page redirects, with the link", 301, []string{`</.well-known/api-catalog>; rel="api-catalog"`}, ""},
		{"home page redirects, without it", 302, nil, "no Link header"},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := func(w http.ResponseWriter, r *http.Request) bool {
				if r.URL.Path != "/" {
					if r.URL.Path == "/.well-known/api-catalog" {
						w.Header().Set("Link", `</.well-known/api-catalog>; rel="api-catalog"`)
						w.Header().Set("Content-Type", `application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"`)
						w.Write(tr[".well-known/api-catalog"].Data)
						return true
					}
					return false
				}
				for _, l := range c.links {
					w.Header().Add("Link", l)
				}
				if c.status/100 == 3 {
					w.Header().Set("Location", "/en/")
				}
				w.WriteHeader(c.status)
				return true
			}
			got := problems(run(t, true, tr, home, Options{}))
			for p, g := range got {
				if p != "/" || c.want == "" || !strings.Contains(g, c.want) {
					t.Errorf("%s: problems %q, want %q on /", p, g, c.want)
				}
			}
			if c.want != "" && got["/"] == "" {
				t.Errorf("/: no problem, want %q", c.want)
			}
		})
	}
}

// TestVerifyCatalogOwnLink: RFC 9727 section 2 asks the response to a
// request for the api-catalog, HEAD included, to carry its own Link.
func TestVerifyCatalogOwnLink(t *testing.T) {
	tr := sampleTree()
	tr[".well-known/api-catalog"] = tree.Entry{Data: []byte("{\n  \"linkset\": []\n}\n")}
	link := `</.well-known/api-catalog>; rel="api-catalog"`
	for _, c := range []struct {
		name      string
		get, head bool // whether each method's response carries the link
		want      string
	}{
		{"both", true, true, ""},
		{"GET only", true, false, "HEAD: no Link header"},
		{"neither", false, false, "no Link header " + link},
	} {
		t.Run(c.name, func(t *testing.T) {
			serve := func(w http.ResponseWriter, r *http.Request) bool {
				switch r.URL.Path {
				case "/":
					w.Header().Set("Link", link)
					w.Write([]byte("<!doctype html>"))
					return true
				case "/.well-known/api-catalog":
					if r.Method == http.MethodHead && c.head || r.Method != http.MethodHead && c.get {
						w.Header().Set("Link", link)
					}
					w.Header().Set("Content-Type", `application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"`)
					w.Write(tr[".well-known/api-catalog"].Data)
					return true
				}
				return false
			}
			got := problems(run(t, true, tr, serve, Options{}))
			for p, g := range got {
				if p != "/.well-known/api-catalog" || c.want == "" || !strings.Contains(g, c.want) {
					t.Errorf("%s: problems %q, want %q on the api-catalog", p, g, c.want)
				}
			}
			if c.want != "" && got["/.well-known/api-catalog"] == "" {
				t.Errorf("no problem on the api-catalog, want %q", c.want)
			}
		})
	}
}
