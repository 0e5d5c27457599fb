package verify

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// TestRedirectElsewhere: a redirect to another origin (another port of
// the same host here; an internal address in the attack) is reported and
// not followed, unless that origin is allowed; within the origin,
// redirects are followed.
func TestRedirectElsewhere(t *testing.T) {
	var asked atomic.Int32
	inner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write(sampleTree()["robots.txt"].Data)
	}))
	defer inner.Close()
	outer := httptest.NewUnstartedServer(&site{t: sampleTree(), change: func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path == "/robots.txt" {
			http.Redirect(w, r, "/hop", http.StatusFound) // within: followed
			return true
		}
		if r.URL.Path == "/hop" {
			http.Redirect(w, r, inner.URL+"/secret", http.StatusFound)
			return true
		}
		return false
	}})
	outer.Config.ErrorLog = log.New(io.Discard, "", 0)
	outer.Start()
	defer outer.Close()
	if !strings.HasPrefix(inner.URL, "http://127.0.0.1:") || !strings.HasPrefix(outer.URL, "http://127.0.0.1:") {
		t.Fatalf("servers at %s and %s", inner.URL, outer.URL)
	}
	opt := Options{Origin: outer.URL, Now: now, Staging: true, Roots: []Root{{Prefix: "/", Tree: sampleTree()}}}

	rs, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the other origin was asked %d times", n)
	}
	want := "redirects to " + inner.URL + "/secret, outside " + outer.URL + ": not followed"
	if got := problems(rs)["/robots.txt"]; !strings.Contains(got, want) {
		t.Errorf("robots.txt: %q, want %q", got, want)
	}
	if got := problems(rs); len(got) != 1 {
		t.Errorf("problems %v, want robots.txt's only", got)
	}

	// An origin allowed is followed.
	opt.RedirectOrigins = []string{inner.URL + "/"}
	rs, err = Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("the allowed origin was asked %d times, want 1", n)
	}
	if got := problems(rs); len(got) != 0 {
		t.Errorf("problems %v", got)
	}
}

func TestSameOrigin(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"https://example.org", "https://example.org:443/x", true},
		{"http://Example.org", "http://example.org:80", true},
		{"https://example.org", "http://example.org", false},
		{"https://example.org", "https://www.example.org", false},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8081", false},
		{"http://[::1]:80", "http://[::1]/", true},
	} {
		a, b := mustURL(t, c.a), mustURL(t, c.b)
		if got := originOf(a) == originOf(b); got != c.same {
			t.Errorf("%s and %s: same %v, want %v", c.a, c.b, got, c.same)
		}
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
