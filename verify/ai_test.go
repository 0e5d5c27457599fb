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
	// except path, which gets ct.
	serve := func(path, ct string) func(http.ResponseWriter, *http.Request) bool {
		return func(w http.ResponseWriter, r *http.Request) bool {
			p := strings.TrimPrefix(r.URL.Path, "/")
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
