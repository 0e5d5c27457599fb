package verify

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tree"
)

// TestPreflight: a file a browser-based client reads with a header of
// its own (the OAuth metadata, the MCP catalogue) fails when its CORS
// preflight is not answered with a 2xx and the CORS headers that allow
// the request: the browser then never sends the GET. A file no script of
// another origin reads is not asked.
func TestPreflight(t *testing.T) {
	tr := tree.Tree{
		".well-known/oauth-protected-resource": {Data: []byte(`{"resource": "https://www.fict.org"}`)},
		".well-known/mcp/catalog.json":         {Data: []byte(`{"specVersion": "draft", "entries": []}`)},
		".well-known/gpc.json":                 {Data: []byte(`{"gpc": true}`)},
	}
	var (
		mu    sync.Mutex // files are fetched a few at a time
		asked []string
	)
	serve := func(preflight func(w http.ResponseWriter, r *http.Request)) func(w http.ResponseWriter, r *http.Request) bool {
		return func(w http.ResponseWriter, r *http.Request) bool {
			p := strings.TrimPrefix(r.URL.Path, "/")
			e, ok := tr[p]
			if !ok {
				return false
			}
			w.Header().Set("Access-Control-Allow-Origin", "*")
			if r.Method == http.MethodOptions {
				mu.Lock()
				asked = append(asked, r.URL.Path+" "+r.Header.Get("Access-Control-Request-Method")+" "+r.Header.Get("Access-Control-Request-Headers"))
				mu.Unlock()
				preflight(w, r)
				return true
			}
			ct, _ := serverconf.ContentType(tr, p)
			w.Header().Set("Content-Type", ct)
			w.Write(e.Data)
			return true
		}
	}
	right := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Methods", "GET")
		w.Header().Set("Access-Control-Allow-Headers", "Content-Type, MCP-Protocol-Version")
		w.WriteHeader(http.StatusNoContent)
	}
	if got := problems(run(t, true, tr, serve(right), Options{})); len(got) > 0 {
		t.Errorf("a right server: %v", got)
	}
	if len(asked) != 2 || strings.Contains(strings.Join(asked, "\n"), "gpc") {
		t.Errorf("preflights sent: %q, want one for each cross-origin file", asked)
	}
	for _, a := range asked {
		if !strings.Contains(a, " GET ") {
			t.Errorf("preflight %q asks for no GET", a)
		}
	}
	notAllowed := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusMethodNotAllowed) }
	got := problems(run(t, true, tr, serve(notAllowed), Options{}))
	for _, p := range []string{"/.well-known/oauth-protected-resource", "/.well-known/mcp/catalog.json"} {
		if !strings.Contains(got[p], "CORS preflight") || !strings.Contains(got[p], "405") {
			t.Errorf("%s: %q, want a failed CORS preflight with its status", p, got[p])
		}
	}
	if len(got) != 2 {
		t.Errorf("problems %v, want two", got)
	}
	noHeaders := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }
	got = problems(run(t, true, tr, serve(noHeaders), Options{}))
	if p := got["/.well-known/oauth-protected-resource"]; !strings.Contains(p, "Access-Control-Allow-Headers") || !strings.Contains(p, "mcp-protocol-version") {
		t.Errorf("a preflight without Access-Control-Allow-Headers: %q", p)
	}
}
