package serverconf

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/discgen/discgen/tree"
)

// The real servers serve llms.txt and the api-catalog with their media
// types (checkServed compares every file's headers with the table), and
// send the api-catalog Link header on the home page "/", served from its
// index file, and on the api-catalog itself, and nowhere else.

var homePage = tree.Tree{"index.html": {Data: []byte("<!doctype html><title>home</title>\n")}}

func TestLiveAINginx(t *testing.T) {
	port := serveNginx(t, aiTree(), Access{}, homePage)
	checkServed(t, port, aiTree(), true)
	checkHomeLink(t, port)
}

func TestLiveAIApache(t *testing.T) {
	port := serveApache(t, aiTree(), Access{}, homePage)
	checkServed(t, port, aiTree(), true)
	checkHomeLink(t, port)
}

func TestLiveAICaddy(t *testing.T) {
	port := serveCaddy(t, aiTree(), Access{}, homePage)
	checkServed(t, port, aiTree(), false)
	checkHomeLink(t, port)
}

// checkHomeLink requests "/" (with GET and HEAD, and with a query) and
// the api-catalog itself (GET and HEAD: RFC 9727 section 2) and expects
// the Link header once; other paths, the index file by its own name
// included, must not carry it.
func checkHomeLink(t *testing.T, port int) {
	t.Helper()
	want := HomeLinks(aiTree())[0]
	for _, c := range []struct {
		method, path string
		link         bool
	}{
		{"GET", "/", true}, {"HEAD", "/", true}, {"GET", "/?utm=x", true},
		{"GET", "/.well-known/api-catalog", true}, {"HEAD", "/.well-known/api-catalog", true},
		{"GET", "/index.html", false}, {"GET", "/robots.txt", false}, {"GET", "/llms.txt", false},
	} {
		req, err := http.NewRequest(c.method, fmt.Sprintf("http://127.0.0.1:%d%s", port, c.path), nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("%s %s: %v", c.method, c.path, err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s %s: status %s", c.method, c.path, resp.Status)
		}
		got := resp.Header.Values("Link")
		switch {
		case c.link && (len(got) != 1 || got[0] != want):
			t.Errorf("%s %s: Link = %q, want %q", c.method, c.path, got, want)
		case !c.link && len(got) != 0:
			t.Errorf("%s %s: Link = %q, want none", c.method, c.path, got)
		}
	}
}
