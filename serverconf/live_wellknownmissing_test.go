package serverconf

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/tree"
)

// The real servers, behind a single-page application's catch-all (every
// path that is not a file answers index.html with a 200), answer a
// /.well-known/ path that is not a file with 404, and serve the rest as
// before: the built files with their headers, a file of the site under
// /.well-known/ that discgen did not write (an ACME challenge), the
// change-password redirect, and the application's own paths from
// index.html.

// spaIndex is the application's page; its body tells it from a file.
var spaIndex = "<!doctype html><title>app</title>\n"

// spaContent is the site's own files: the application and a file another
// tool put under /.well-known/.
func spaContent() tree.Tree {
	return tree.Tree{
		"index.html": {Data: []byte(spaIndex)},
		".well-known/acme-challenge/Fx9oKq3uW2mJ7c0tR5yZ": {Data: []byte("Fx9oKq3uW2mJ7c0tR5yZ.key\n")},
	}
}

// checkWellKnownMissing sends the requests above to the server at port.
func checkWellKnownMissing(t *testing.T, port int, expires bool) {
	t.Helper()
	checkServed(t, port, sectionTree(), expires)
	checkSection(t, port)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct {
		path   string
		status int
		body   string // a prefix of the body, "" any
	}{
		{"/.well-known/nothing-here", 404, ""},
		{"/.well-known/security.txt", 404, ""},
		{"/.well-known/gpc.json/more", 404, ""},
		{"/.well-known/a/b/c.json", 404, ""},
		{"/.well-known/nothing-here/", 404, ""},
		{"/.well-known/nothing-here?x=1", 404, ""},
		{"/.well-known/", 404, ""},
		{"/%2Ewell-known/nothing-here", 404, ""},
		{"/.well-known/acme-challenge/Fx9oKq3uW2mJ7c0tR5yZ", 200, "Fx9oKq3uW2mJ7c0tR5yZ.key"},
		{"/", 200, spaIndex},
		{"/some/route", 200, spaIndex},
		{"/some/route.json", 200, spaIndex},
		{"/.well-knownx/route", 200, spaIndex},
	} {
		url := fmt.Sprintf("http://127.0.0.1:%d%s", port, c.path)
		resp, err := client.Get(url)
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || c.body != "" && !strings.HasPrefix(string(body), c.body) {
			t.Errorf("%s: %s, body %.40q; want %d %.40q", c.path, resp.Status, body, c.status, c.body)
		}
		if c.status == 404 && resp.StatusCode == 404 && strings.Contains(string(body), "<title>app</title>") {
			t.Errorf("%s: 404 with the application's page", c.path)
		}
	}
}

// spaNginx serves the section's files with nginx, the snippet included
// before the site's own locations, which end in catch.
func spaNginx(t *testing.T, catch string) int {
	t.Helper()
	livetest.NeedsNginx(t)
	dir, site, conf := liveSite(t, Nginx, sectionTree(), Access{Redirects: changePassword}, spaContent())
	server := filepath.Join(dir, "server.conf")
	if err := os.WriteFile(server, []byte(fmt.Sprintf("include %s;\n%s\n", conf, catch)), 0o644); err != nil {
		t.Fatal(err)
	}
	return livetest.Nginx(t, dir, site, server)
}

func TestLiveWellKnownMissingNginx(t *testing.T) {
	for _, c := range []struct{ name, catch string }{
		{"try_files", "location / { try_files $uri /index.html; }"},
		{"try_files with directories", "location / { try_files $uri $uri/ /index.html; }"},
		{"error_page", "error_page 404 =200 /index.html;\nlocation / { }"},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkWellKnownMissing(t, spaNginx(t, c.catch), true)
		})
	}
	// A well-known resource the site answers itself, by an exact location.
	t.Run("own location", func(t *testing.T) {
		port := spaNginx(t, "location = /.well-known/webfinger { return 200 \"wf\\n\"; }\nlocation / { try_files $uri /index.html; }")
		checkWellKnownMissing(t, port, true)
		checkBody(t, port, "/.well-known/webfinger", "wf\n")
	})
}

// checkBody wants a 200 with body at path.
func checkBody(t *testing.T, port int, path, body string) {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d%s", port, path))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(got) != body {
		t.Errorf("%s: %s %q, want 200 %q", path, resp.Status, got, body)
	}
}

// spaApache serves the section's files with Apache, configured by the
// .htaccess, and the site's catch-all in the server configuration: extra,
// in which SITE is the site's directory.
func spaApache(t *testing.T, extra string) int {
	t.Helper()
	dir, site, _ := liveSite(t, Htaccess, sectionTree(), Access{Redirects: changePassword}, spaContent())
	return livetest.Apache(t, dir, site, []string{"dir", "alias"}, "DirectoryIndex index.html\n"+strings.ReplaceAll(extra, "SITE", site))
}

func TestLiveWellKnownMissingApache(t *testing.T) {
	for _, c := range []struct{ name, extra string }{
		{"FallbackResource", "<Directory SITE>\n\tFallbackResource /index.html\n</Directory>\n"},
		{"FallbackResource, server", "FallbackResource /index.html\n"},
		// Where mod_rewrite in an .htaccess would refuse every request.
		{"FallbackResource, Options None", "<Directory SITE>\n\tOptions None\n\tFallbackResource /index.html\n</Directory>\n"},
		{"RewriteRule, directory", "<Directory SITE>\n\tRewriteEngine On\n\tRewriteCond %{REQUEST_FILENAME} !-f\n\tRewriteCond %{REQUEST_FILENAME} !-d\n\tRewriteRule ^ index.html [L]\n</Directory>\n"},
		{"RewriteRule, server", "RewriteEngine On\nRewriteCond %{DOCUMENT_ROOT}%{REQUEST_URI} !-f\nRewriteCond %{DOCUMENT_ROOT}%{REQUEST_URI} !-d\nRewriteRule ^ /index.html [L]\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkWellKnownMissing(t, spaApache(t, c.extra), true)
		})
	}
}

// spaCaddy serves the section's files with Caddy, the snippet imported
// before the site's own directives, site.
func spaCaddy(t *testing.T, site string) int {
	t.Helper()
	return spaCaddyAfter(t, "", site)
}

// spaCaddyAfter is spaCaddy with the site's directives before, written
// before the import.
func spaCaddyAfter(t *testing.T, before, site string) int {
	t.Helper()
	livetest.NeedsCaddy(t)
	dir, root, conf := liveSite(t, Caddy, sectionTree(), Access{Redirects: changePassword}, spaContent())
	return livetest.Caddy(t, dir, fmt.Sprintf("\troot * %[1]s\n%[3]s\timport %[2]s\n", root, conf, before)+site)
}

func TestLiveWellKnownMissingCaddy(t *testing.T) {
	for _, c := range []struct{ name, site string }{
		{"try_files", "\ttry_files {path} /index.html\n\tfile_server\n"},
		{"handle", "\thandle /api/* {\n\t\trespond \"api\" 200\n\t}\n\thandle {\n\t\ttry_files {path} /index.html\n\t\tfile_server\n\t}\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkWellKnownMissing(t, spaCaddy(t, c.site), false)
		})
	}
	// A well-known resource the site answers itself, in a handle block
	// written before the import: Caddy keeps the written order between a
	// path matcher and discgen's named one. (A site-level try_files would
	// rewrite its path before any handle: the catch-all is in a handle.)
	t.Run("own handle", func(t *testing.T) {
		port := spaCaddyAfter(t, "\thandle /.well-known/webfinger {\n\t\trespond \"wf\n\" 200\n\t}\n", "\thandle {\n\t\ttry_files {path} /index.html\n\t\tfile_server\n\t}\n")
		checkWellKnownMissing(t, port, false)
		checkBody(t, port, "/.well-known/webfinger", "wf\n")
	})
}

// TestLiveWellKnownCaddyRootInHandle: a site that sets its root only
// inside its own handle block (as the tenant setup of docs/commands.md
// does) keeps every file and redirect; discgen's handle block, which could
// not find the files without a root, stands aside.
func TestLiveWellKnownCaddyRootInHandle(t *testing.T) {
	livetest.NeedsCaddy(t)
	dir, root, conf := liveSite(t, Caddy, sectionTree(), Access{Redirects: changePassword}, spaContent())
	port := livetest.Caddy(t, dir, fmt.Sprintf("\timport %s\n\thandle {\n\t\troot * %s\n\t\tfile_server\n\t}\n", conf, root))
	checkServed(t, port, sectionTree(), false)
	checkSection(t, port)
}
