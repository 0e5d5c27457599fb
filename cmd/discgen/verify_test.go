package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/sitebuild"
	"github.com/discgen/discgen/tree"
)

// TestVerifyTenants serves the example's site and tenant trees as built in
// memory, each tenant under its space, and verifies with --tenants; then
// drops one tenant file from the server.
func TestVerifyTenants(t *testing.T) {
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	res, diags := sitebuild.Build(sitebuild.Options{Manifest: "../../examples/site.yaml", Now: now, Tenants: true})
	if res == nil || len(res.Tenants) != 2 {
		t.Fatalf("build: %v", diags)
	}
	// Each file is served with the type discgen's server configuration
	// gives it.
	type file struct {
		data  []byte
		ctype string
		links []string // the file's own Link values (the api-catalog's)
	}
	served := map[string]file{}
	rights := generate.SiteRights(res.Model) // the RSL document's type
	add := func(prefix string, tr tree.Tree) {
		for p, e := range tr {
			data := e.Data
			if e.Link != "" {
				data = res.Tree["robots.txt"].Data
			}
			ctype, err := serverconf.ContentType(tr, p)
			if prefix == "/" {
				ctype, err = rights.ContentType(tr, p)
			}
			if err != nil {
				t.Fatal(err)
			}
			served[prefix+p] = file{data, ctype, serverconf.FileLinks(tr, p)}
		}
	}
	add("/", res.Tree)
	for _, tn := range res.Tenants {
		add(tn.Space.String(), tn.Tree)
	}
	// The site's home page, with the api-catalog Link header --server adds
	// (as on the api-catalog itself).
	served["/"] = file{[]byte("<!doctype html>\n"), "text/html; charset=utf-8", serverconf.HomeLinks(res.Tree)}
	// The sitemap its robots.txt names, which verify fetches too.
	served["/sitemap.xml"] = file{[]byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.fict.org/</loc></url></urlset>`), "application/xml", nil}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := served[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		for _, l := range f.links {
			w.Header().Add("Link", l)
		}
		w.Header().Set("Content-Type", f.ctype)
		w.Write(f.data)
	}))
	defer srv.Close()

	verify := func(args ...string) (string, string, error) {
		var o, e bytes.Buffer
		err := run(append([]string{"verify", "-f", "../../examples/site.yaml", "--now", "2026-11-01"}, args...), &o, &e)
		return o.String(), e.String(), err
	}
	siteFiles := len(res.Tree) + 2 // and the home page and the sitemap
	checked := func(n int) string { return fmt.Sprintf("%d files checked, 0 failed", n) }
	o, e, err := verify("--tenants", srv.URL)
	if err != nil {
		t.Fatalf("verify --tenants: %v\n%s\n%s", err, o, e)
	}
	if !strings.Contains(o, "/~alice/autodisc/icons.txt") || !strings.Contains(o, checked(len(served))) {
		t.Errorf("tenants not checked:\n%s", o)
	}
	delete(served, "/~bob/autodisc/feeds.txt")
	o, e, err = verify("--tenants", "--format", "github", srv.URL)
	if exitCode(err) != 1 || !strings.Contains(o, "::error title=discgen verify::"+srv.URL+"/~bob/autodisc/feeds.txt: status 404 Not Found, want 200") {
		t.Errorf("exit %d, want 1 naming bob's feeds.txt:\n%s\n%s", exitCode(err), o, e)
	}
	// Without --tenants only the site's files are fetched.
	if o, e, err := verify(srv.URL); err != nil || !strings.Contains(o, checked(siteFiles)) {
		t.Errorf("verify without --tenants: %v\n%s\n%s", err, o, e)
	}

	// A server that shares its address with other sites answers for
	// www.fict.org by name only: verify of its address checks its default
	// site and fails; --connect-to and --resolve connect to the address
	// and send the site's name.
	named := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if host, _, _ := strings.Cut(r.Host, ":"); host != "www.fict.org" {
			http.NotFound(w, r)
			return
		}
		srv.Config.Handler.ServeHTTP(w, r)
	}))
	defer named.Close()
	port := named.URL[strings.LastIndexByte(named.URL, ':')+1:]
	if o, e, err := verify(named.URL); exitCode(err) != 1 {
		t.Errorf("verify of a name-based server's address: exit %d, want 1\n%s\n%s", exitCode(err), o, e)
	}
	for _, args := range [][]string{
		{"http://www.fict.org/", "--connect-to", "www.fict.org:80:127.0.0.1:" + port},
		{"http://www.fict.org:" + port + "/", "--resolve", "www.fict.org:" + port + ":127.0.0.1"},
	} {
		if o, e, err := verify(args...); err != nil || !strings.Contains(o, checked(siteFiles)) {
			t.Errorf("verify %s: %v\n%s\n%s", strings.Join(args, " "), err, o, e)
		}
	}
	// import --site fetches the same way.
	var io, ie bytes.Buffer
	if err := run([]string{"import", "--site", "http://www.fict.org/", "--connect-to", "www.fict.org:80:127.0.0.1:" + port}, &io, &ie); err != nil && exitCode(err) != 1 {
		t.Errorf("import --site --connect-to: %v\n%s", err, ie.String())
	}
	if !strings.Contains(io.String(), "url: http://www.fict.org/") || !strings.Contains(io.String(), "disallow:") {
		t.Errorf("import --site --connect-to did not read the site's robots.txt:\n%s\n%s", io.String(), ie.String())
	}
	if _, e, err := verify("--connect-to", "www.fict.org:443"); exitCode(err) != 2 || !strings.Contains(e, "HOST1:PORT1:HOST2:PORT2") {
		t.Errorf("a malformed --connect-to: exit %d, want 2 with the form\n%s", exitCode(err), e)
	}
}
