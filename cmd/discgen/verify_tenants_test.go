package main

import (
	"bytes"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/internal/testing/testfs"
)

// The tenant setups these tests serve, as docs/commands.md describes them: each
// user's public_html under /~NAME/, the site's generated rules included
// before the server's own userdir rule.

// tenantSite writes a site manifest delegating "~*" to the tenants glob
// home/*/public_html/autodisc.yaml, n tenants (each with an inline
// delegatee, so a tenant has autodisc files below its own autodisc/, and
// an x- file of another type), builds it with --server, and returns the
// directory, the public tree and the server directory. The site's
// headers (tenantSiteWide) are path-scoped, two of them to a tenant.
func tenantSite(t *testing.T, n int) (dir, public, conf string) {
	t.Helper()
	dir = livetest.Dir(t)
	manifest := `version: 1
site:
  url: https://www.example.org/
  description: An ISP
delegations:
  - path: "~*"
    tenants: "home/*/public_html/autodisc.yaml"
agents:
  - names: ["*"]
    disallow: []
  - names: [GPTBot]
    disallow: [/~user1/]
    enforce: true
noindex: true
usage:
  train_ai: no
  search: yes
  paths:
    - {path: /~user1/, search: no}
license:
  url: /license.xml
  source: license.xml
tdm:
  reservation: true
  policy: /tdm-policy.json
  paths:
    - {path: /~user2/, reservation: false}
`
	testfs.Write(t, filepath.Join(dir, "site.yaml"), manifest)
	testfs.Write(t, filepath.Join(dir, "license.xml"), `<rsl xmlns="https://rslstandard.org/rsl"><content url="/" server="https://rsl.example/"/></rsl>`+"\n")
	for i := range n {
		name := fmt.Sprintf("user%d", i+1)
		testfs.Write(t, filepath.Join(dir, "home", name, "public_html", "autodisc.yaml"), fmt.Sprintf(`version: 1
path: /~%[1]s/
description: The pages of %[1]s
feeds: [{url: /~%[1]s/feed.atom}]
files:
  x-contact.txt: "%[1]s@example.org"
  x-keys.json: "{}"
  x-meta.xml: "<meta/>"
delegations:
  - path: blog/
    inline:
      description: The blog of %[1]s
`, name))
		testfs.Write(t, filepath.Join(dir, "home", name, "public_html", "index.html"), "<!doctype html>\n")
	}
	public, conf = filepath.Join(dir, "public"), filepath.Join(dir, "server")
	var out, errb bytes.Buffer
	err := run([]string{"build", "-f", filepath.Join(dir, "site.yaml"), "-o", public, "--state", filepath.Join(dir, "state"),
		"--now", "2026-11-01", "--server", "nginx,htaccess,caddy", "--server-dir", conf}, &out, &errb)
	if err != nil {
		t.Fatalf("build: %v\n%s", err, errb.String())
	}
	// Directories readable by a server that drops privileges.
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			mode := os.FileMode(0o644)
			if d.IsDir() {
				mode = 0o755
			}
			os.Chmod(p, mode)
		}
		return nil
	})
	return dir, public, conf
}

// verifyTenants runs verify --tenants against the server on port and
// checks that every file, each tenant's included, passes; then that each
// tenant file also gets the other headers of the site's autodisc files,
// and with expires an Expires.
func verifyTenants(t *testing.T, dir string, port, tenants int, expires bool) {
	t.Helper()
	defer tenantRefusals(t, port)
	defer tenantSiteWide(t, port, tenants)
	defer tenantHeaders(t, port, tenants, expires)
	var o, e bytes.Buffer
	err := run([]string{"verify", "--tenants", "-f", filepath.Join(dir, "site.yaml"), "--now", "2026-11-01",
		fmt.Sprintf("http://127.0.0.1:%d/", port)}, &o, &e)
	// Each tenant has autodisc/ (index, description, feeds, x-contact,
	// x-keys, subdirectories) and blog/autodisc/ (index, description).
	// The RSL document is checked too, served as application/rsl+xml.
	want := fmt.Sprintf("/~user%d/blog/autodisc/description.txt", tenants)
	if err != nil || !strings.Contains(o.String(), want) || !strings.Contains(o.String(), "/license.xml") || !strings.Contains(o.String(), " checked, 0 failed") {
		t.Fatalf("verify --tenants: %v\n%s\n%s", err, o.String(), e.String())
	}
	t.Logf("verify --tenants:\n%s", o.String())
}

// tenantHeaders fetches each tenant's files and checks the headers
// verify does not: Cache-Control, X-Content-Type-Options,
// Access-Control-Allow-Origin and Expires.
func tenantHeaders(t *testing.T, port, tenants int, expires bool) {
	t.Helper()
	want := map[string]string{"Cache-Control": "max-age=604800", "X-Content-Type-Options": "nosniff", "Access-Control-Allow-Origin": "*"}
	for i := range tenants {
		for _, f := range []string{"autodisc/index.txt", "autodisc/x-keys.json", "autodisc/x-meta.xml", "blog/autodisc/index.txt"} {
			url := fmt.Sprintf("http://127.0.0.1:%d/~user%d/%s", port, i+1, f)
			resp, err := http.Get(url)
			if err != nil {
				t.Error(err)
				continue
			}
			resp.Body.Close()
			for name, v := range want {
				if got := resp.Header.Values(name); len(got) != 1 || got[0] != v {
					t.Errorf("%s: %s %q, want %q", url, name, got, v)
				}
			}
			if got := resp.Header.Get("Expires"); (got != "") != expires {
				t.Errorf("%s: Expires %q, want one: %v", url, got, expires)
			}
		}
	}
	// Other files of the tenants keep the server's own headers.
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/~user1/index.html", port))
	if err != nil {
		t.Error(err)
		return
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "" {
		t.Errorf("/~user1/index.html: %s, Cache-Control %q; want 200 and none", resp.Status, resp.Header.Get("Cache-Control"))
	}
}

// tenantSiteWide checks that every response of the tenants, their
// autodisc files and the files the server's own userdir rule serves, gets
// the site's headers as for the site's own paths, path scoping included:
// X-Robots-Tag, Content-Usage, the licence's Link and the tdm headers.
func tenantSiteWide(t *testing.T, port, tenants int) {
	t.Helper()
	const link = `<https://www.example.org/license.xml>; rel="license"; type="application/rsl+xml"`
	for i := range tenants {
		user := fmt.Sprintf("user%d", i+1)
		want := map[string]string{
			"X-Robots-Tag":    "noindex",
			"Content-Usage":   "train-ai=n, search=y",
			"Link":            link,
			"tdm-reservation": "1",
			"tdm-policy":      "https://www.example.org/tdm-policy.json",
		}
		switch user {
		case "user1":
			want["Content-Usage"] = "train-ai=n, search=n"
		case "user2":
			want["tdm-reservation"], want["tdm-policy"] = "0", ""
		}
		for _, f := range []string{"autodisc/index.txt", "autodisc/x-keys.json", "blog/autodisc/index.txt", "index.html"} {
			url := fmt.Sprintf("http://127.0.0.1:%d/~%s/%s", port, user, f)
			resp, err := http.Get(url)
			if err != nil {
				t.Error(err)
				continue
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("%s: %s", url, resp.Status)
			}
			for _, name := range slices.Sorted(maps.Keys(want)) {
				got, v := resp.Header.Values(name), want[name]
				if v == "" && len(got) != 0 || v != "" && (len(got) != 1 || got[0] != v) {
					t.Errorf("%s: %s %q, want %q", url, name, got, v)
				}
			}
		}
	}
}

// tenantRefusals checks that enforce refuses a crawler at a tenant's URLs
// where the site's robots.txt disallows it, as at the site's own: GPTBot
// is disallowed /~user1/.
func tenantRefusals(t *testing.T, port int) {
	t.Helper()
	gpt := "Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)"
	for _, c := range []struct {
		ua, path string
		status   int
	}{
		{gpt, "/~user1/index.html", http.StatusForbidden},
		{gpt, "/~user1/autodisc/index.txt", http.StatusForbidden},
		{gpt, "/~user2/index.html", http.StatusOK},
		{gpt, "/robots.txt", http.StatusOK},
		{"Mozilla/5.0 Firefox/140.0", "/~user1/index.html", http.StatusOK},
	} {
		req, _ := http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d%s", port, c.path), nil)
		req.Header.Set("User-Agent", c.ua)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s as %q: %s, want %d", c.path, c.ua, resp.Status, c.status)
		}
	}
}

func TestVerifyTenantsNginx(t *testing.T) {
	livetest.NeedsNginx(t)
	dir, public, conf := tenantSite(t, 3)
	include := filepath.Join(dir, "server.conf")
	testfs.Write(t, include, fmt.Sprintf(`include %s;
location ~ ^/~([^/.][^/]*)(/.*)$ {
	alias %s/home/$1/public_html$2;
}
`, filepath.Join(conf, "nginx", "discgen.conf"), dir))
	port := livetest.Nginx(t, dir, public, include)
	verifyTenants(t, dir, port, 3, true)
}

func TestVerifyTenantsApache(t *testing.T) {
	dir, public, conf := tenantSite(t, 3)
	port := livetest.Apache(t, dir, public, []string{"userdir"}, fmt.Sprintf(`AddType application/json .json
UserDir %[1]s/home/*/public_html
<Directory %[1]s/home/*/public_html>
	AllowOverride None
	Require all granted
</Directory>
IncludeOptional %[2]s
`, dir, filepath.Join(conf, "apache", "discgen-tenants.conf")))
	verifyTenants(t, dir, port, 3, true)
}

func TestVerifyTenantsCaddy(t *testing.T) {
	dir, public, conf := tenantSite(t, 3)
	port := livetest.Caddy(t, dir, fmt.Sprintf(`	import %[2]s
	@userdir path_regexp userdir ^/~([^/.][^/]*)(/.*)$
	handle @userdir {
		root * %[1]s/home/{re.userdir.1}/public_html
		rewrite * {re.userdir.2}
		file_server
	}
	handle {
		root * %[3]s
		file_server
	}`, dir, filepath.Join(conf, "caddy", "discgen.caddy"), public))
	// Caddy sends fixed values: Cache-Control without Expires.
	verifyTenants(t, dir, port, 3, false)
}

// TestServerConfTenantsFlat builds a site with 3 tenants, then with 300
// in the same directory: the server configuration is the same bytes, one
// rule for the delegation whatever the number of tenants.
func TestServerConfTenantsFlat(t *testing.T) {
	dir, _, conf := tenantSite(t, 3)
	read := func() map[string]string {
		out := map[string]string{}
		filepath.WalkDir(conf, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(p)
				out[p] = string(data)
			}
			return err
		})
		return out
	}
	few := read()
	if len(few) != 3 || !strings.Contains(few[filepath.Join(conf, "nginx", "discgen.conf")], "Tenants of /~*/") {
		t.Fatalf("server files of a 3-tenant build: %d, nginx without the tenants' rule", len(few))
	}
	for i := 3; i < 300; i++ {
		name := fmt.Sprintf("user%d", i+1)
		testfs.Write(t, filepath.Join(dir, "home", name, "public_html", "autodisc.yaml"),
			fmt.Sprintf("version: 1\npath: /~%s/\ndescription: The pages of %s\n", name, name))
	}
	var out, errb bytes.Buffer
	err := run([]string{"build", "-f", filepath.Join(dir, "site.yaml"), "-o", filepath.Join(dir, "public"), "--state", filepath.Join(dir, "state"),
		"--now", "2026-11-01", "--server", "nginx,htaccess,caddy", "--server-dir", conf}, &out, &errb)
	if err != nil {
		t.Fatalf("build: %v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "297 built") {
		t.Fatalf("want the 297 new tenants built:\n%s", out.String())
	}
	many := read()
	for p, data := range few {
		if many[p] != data {
			t.Errorf("%s differs between 3 and 300 tenants (%d and %d bytes)", p, len(data), len(many[p]))
		}
	}
	if len(many) != len(few) {
		t.Errorf("%d server files with 300 tenants, %d with 3", len(many), len(few))
	}
}
