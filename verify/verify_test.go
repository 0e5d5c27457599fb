package verify

import (
	"bytes"
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/discgen/discgen/tree"
)

var now = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func sampleTree() tree.Tree {
	return tree.Tree{
		"robots.txt":               {Data: []byte("User-agent: *\nDisallow: /private/\n")},
		"autodisc/index.txt":       {Data: []byte("robots.txt\n")},
		"autodisc/robots.txt":      {Link: "../robots.txt"},
		".well-known/security.txt": {Data: []byte("Contact: mailto:s@example.org\nExpires: 2027-06-01T00:00:00Z\n")},
		".well-known/gpc.json":     {Data: []byte(`{"gpc": true}`)},
	}
}

// site serves t as a correct server would, except where change alters
// the response of one path.
type site struct {
	t      tree.Tree
	change func(w http.ResponseWriter, r *http.Request) bool
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.change != nil && s.change(w, r) {
		return
	}
	p := strings.TrimPrefix(r.URL.Path, "/")
	data, err := contents(s.t, p)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	ct := "text/plain; charset=utf-8"
	if strings.HasSuffix(p, ".json") {
		ct = "application/json"
	}
	w.Header().Set("Content-Type", ct)
	w.Write(data)
}

func run(t *testing.T, tls bool, t2 tree.Tree, change func(w http.ResponseWriter, r *http.Request) bool, opt Options) []Result {
	t.Helper()
	s := &site{t: t2, change: change}
	srv := httptest.NewUnstartedServer(s)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	if tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	defer srv.Close()
	opt.Origin, opt.Client, opt.Now = srv.URL, srv.Client(), now
	if opt.Roots == nil {
		opt.Roots = []Root{{Prefix: "/", Tree: t2}}
	}
	rs, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// problems returns path -> joined problems of the failing files.
func problems(rs []Result) map[string]string {
	out := map[string]string{}
	for _, r := range rs {
		if !r.OK() {
			out[r.Path] = strings.Join(r.Problems, "; ")
		}
	}
	return out
}

func TestVerify(t *testing.T) {
	only := func(path string, f func(w http.ResponseWriter)) func(http.ResponseWriter, *http.Request) bool {
		return func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path != path {
				return false
			}
			f(w)
			return true
		}
	}
	cases := []struct {
		name   string
		tls    bool
		tree   tree.Tree
		change func(http.ResponseWriter, *http.Request) bool
		opt    Options
		want   map[string]string // path -> a problem's text
	}{
		{name: "correct", tls: true, want: map[string]string{}},
		{name: "missing", tls: true, change: only("/autodisc/index.txt", func(w http.ResponseWriter) { http.Error(w, "gone", 404) }),
			want: map[string]string{"/autodisc/index.txt": "status 404 Not Found, want 200"}},
		{name: "too many redirects", tls: true, change: func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == "/robots.txt" {
				http.Redirect(w, r, "/hop/1", http.StatusFound)
				return true
			}
			if n, ok := strings.CutPrefix(r.URL.Path, "/hop/"); ok {
				http.Redirect(w, r, "/hop/"+n+"x", http.StatusFound)
				return true
			}
			return false
		}, want: map[string]string{"/robots.txt": "more than 5 redirects"}},
		{name: "media type", tls: true, change: only("/robots.txt", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write(sampleTree()["robots.txt"].Data)
		}), want: map[string]string{"/robots.txt": "Content-Type application/octet-stream, want text/plain; charset=utf-8"}},
		{name: "charset", tls: true, change: only("/autodisc/robots.txt", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/plain")
			w.Write(sampleTree()["robots.txt"].Data)
		}), want: map[string]string{"/autodisc/robots.txt": "has no charset"}},
		{name: "not utf-8", tls: true, tree: func() tree.Tree {
			t := sampleTree()
			t["autodisc/index.txt"] = tree.Entry{Data: []byte("caf\xe9\n")}
			return t
		}(), want: map[string]string{"/autodisc/index.txt": "not valid UTF-8"}},
		{name: "stale", tls: true, change: only("/robots.txt", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Write([]byte("User-agent: *\nDisallow: /old/\n"))
		}), want: map[string]string{"/robots.txt": "differs from the build"}},
		{name: "robots.txt too large", tls: true, tree: func() tree.Tree {
			t := sampleTree()
			t["robots.txt"] = tree.Entry{Data: append([]byte("User-agent: *\n"), bytes.Repeat([]byte("Disallow: /a\n"), 50000)...)}
			return t
		}(), want: map[string]string{"/robots.txt": "over the 500 KiB"}},
		{name: "security.txt over http", want: map[string]string{"/.well-known/security.txt": "RFC 9116 section 3 requires https"}},
		{name: "security.txt expired", tls: true, tree: func() tree.Tree {
			t := sampleTree()
			t[".well-known/security.txt"] = tree.Entry{Data: []byte("Contact: mailto:s@example.org\nExpires: 2026-01-01T00:00:00Z\n")}
			return t
		}(), want: map[string]string{"/.well-known/security.txt": "expired on 2026-01-01T00:00:00Z"}},
		{name: "timeout", tls: true, change: only("/.well-known/gpc.json", func(w http.ResponseWriter) { time.Sleep(2 * time.Second) }),
			opt: Options{Timeout: 300 * time.Millisecond}, want: map[string]string{"/.well-known/gpc.json": "no complete response within 300ms"}},
		{name: "tenant files", tls: true, tree: func() tree.Tree {
			t := sampleTree()
			t["~alice/autodisc/index.txt"] = tree.Entry{Data: []byte("description.txt\n")}
			return t
		}(), opt: Options{Roots: []Root{{Prefix: "/", Tree: sampleTree()}, {Prefix: "/~alice/", Tree: tree.Tree{
			"autodisc/index.txt":       {Data: []byte("description.txt\n")},
			"autodisc/description.txt": {Data: []byte("Alice\n")},
		}}}}, want: map[string]string{"/~alice/autodisc/description.txt": "status 404"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := c.tree
			if tr == nil {
				tr = sampleTree()
			}
			rs := run(t, c.tls, tr, c.change, c.opt)
			got := problems(rs)
			for p, want := range c.want {
				if !strings.Contains(got[p], want) {
					t.Errorf("%s: problems %q, want %q", p, got[p], want)
				}
			}
			for p, g := range got {
				if _, ok := c.want[p]; !ok {
					t.Errorf("%s: unexpected problems %q", p, g)
				}
			}
			if n := len(rs); n < 5 {
				t.Errorf("%d files checked, want every file of the build", n)
			}
		})
	}
}

// TestVerifyRedirectsAndStaging follows up to 5 redirects, and only notes
// an http security.txt on a staging origin.
func TestVerifyRedirectsAndStaging(t *testing.T) {
	hops := func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path == "/robots.txt" {
			http.Redirect(w, r, "/r/4", http.StatusMovedPermanently)
			return true
		}
		if n, ok := strings.CutPrefix(r.URL.Path, "/r/"); ok {
			if n == "1" {
				http.Redirect(w, r, "/robots-real", http.StatusFound)
			} else {
				http.Redirect(w, r, "/r/"+string(rune(n[0]-1)), http.StatusFound)
			}
			return true
		}
		if r.URL.Path == "/robots-real" {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Write(sampleTree()["robots.txt"].Data)
			return true
		}
		return false
	}
	rs := run(t, false, sampleTree(), hops, Options{Staging: true})
	if got := problems(rs); len(got) != 0 {
		t.Errorf("problems: %v", got)
	}
	for _, r := range rs {
		if r.Path == "/robots.txt" && r.Redirects != 5 {
			t.Errorf("robots.txt: %d redirects, want 5", r.Redirects)
		}
		if r.Path == "/.well-known/security.txt" && len(r.Notes) == 0 {
			t.Errorf("security.txt over http on staging: no note")
		}
	}
}

// TestVerifyParallel checks that at most Parallel requests run at once.
func TestVerifyParallel(t *testing.T) {
	var cur, peak atomic.Int32
	slow := func(w http.ResponseWriter, r *http.Request) bool {
		n := cur.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(50 * time.Millisecond)
		cur.Add(-1)
		return false
	}
	tr := sampleTree()
	for i := range 12 {
		tr["autodisc/x-"+string(rune('a'+i))+".txt"] = tree.Entry{Data: []byte("x\n")}
	}
	run(t, true, tr, slow, Options{Parallel: 3})
	if p := peak.Load(); p > 3 || p < 2 {
		t.Errorf("peak concurrency %d, want 2..3", p)
	}
}

func TestWriteText(t *testing.T) {
	rs := []Result{{Path: "/robots.txt", Status: 200, ContentType: "text/plain", Size: 3},
		{Path: "/data.txt", Status: 404, Problems: []string{"status 404 Not Found, want 200"}}}
	var b bytes.Buffer
	WriteText(&b, rs)
	for _, want := range []string{"ok      /robots.txt  200", "FAIL    /data.txt    404", "/data.txt: status 404 Not Found, want 200", "2 files checked, 1 failed"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

func TestWriteJSONAndGitHub(t *testing.T) {
	rs := []Result{{Path: "/robots.txt", URL: "https://x.org/robots.txt", Status: 200, Size: 3},
		{Path: "/a%b", URL: "https://x.org/a%25b", Status: 404, Problems: []string{"status 404 Not Found, want 200"}, Notes: []string{"n"}}}
	var j bytes.Buffer
	if err := WriteJSON(&j, rs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"ok": false`, `"path": "/a%b"`, `"problems": [`, `"status 404 Not Found, want 200"`} {
		if !strings.Contains(j.String(), want) {
			t.Errorf("json lacks %q:\n%s", want, j.String())
		}
	}
	var g bytes.Buffer
	WriteGitHub(&g, rs)
	want := "::error title=discgen verify::https://x.org/a%2525b: status 404 Not Found, want 200\n::notice title=discgen verify::https://x.org/a%2525b: n\n"
	if g.String() != want {
		t.Errorf("github:\n%s\nwant:\n%s", g.String(), want)
	}
}
