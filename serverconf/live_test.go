package serverconf

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/tree"
)

// These tests serve the sample tree with a real server, configured by the
// rendered file, and check the headers of every response. Each needs its
// server installed and skips without it.

// writeTree writes t under dir, with directories and files readable by all
// (a server may drop privileges before reading them).
func writeTree(t *testing.T, dir string, tr tree.Tree) {
	t.Helper()
	for _, p := range tr.Paths() {
		file := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		e := tr[p]
		var err error
		if e.Link != "" {
			err = os.Symlink(e.Link, file)
		} else {
			err = os.WriteFile(file, e.Data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// checkServed requests every file of tr and compares the four headers.
// With expires, each response must also carry an Expires that is its Date
// plus the Cache-Control max-age (seed 001 section 3.4: robots honour
// Expires); without, none.
func checkServed(t *testing.T, port int, tr tree.Tree, expires bool) {
	t.Helper()
	for _, p := range tr.Paths() {
		target, err := resolve(tr, p)
		if err != nil {
			t.Fatal(err)
		}
		want := profileOf(p, target)
		url := fmt.Sprintf("http://127.0.0.1:%d%s", port, escapedPath(p))
		resp, err := http.Get(url)
		if err != nil {
			t.Errorf("%s: %v", url, err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: status %s", url, resp.Status)
			continue
		}
		for _, h := range want.fields() {
			if got := resp.Header.Values(h[0]); len(got) != 1 || got[0] != h[1] {
				t.Errorf("%s: %s = %q, want %q", url, h[0], got, h[1])
			}
		}
		checkExpires(t, url, resp.Header, want, expires)
	}
	// A file the configuration does not name keeps the server's defaults.
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/unnamed.txt", port))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Cache-Control"); resp.StatusCode != http.StatusOK || got != "" {
		t.Errorf("/unnamed.txt: status %s, Cache-Control %q; want 200 without one", resp.Status, got)
	}
}

// checkExpires checks that h has an Expires matching its Date and the
// profile's max-age, or none when expires is false.
func checkExpires(t *testing.T, url string, h http.Header, want profile, expires bool) {
	t.Helper()
	got := h.Values("Expires")
	if !expires {
		if len(got) != 0 {
			t.Errorf("%s: Expires %q, want none", url, got)
		}
		return
	}
	if len(got) != 1 {
		t.Errorf("%s: Expires = %q, want one", url, got)
		return
	}
	exp, err1 := http.ParseTime(got[0])
	date, err2 := http.ParseTime(h.Get("Date"))
	age, err3 := strconv.Atoi(want.maxAge())
	if err1 != nil || err2 != nil || err3 != nil {
		t.Errorf("%s: Expires %q, Date %q: %v %v %v", url, got[0], h.Get("Date"), err1, err2, err3)
		return
	}
	if d := exp.Sub(date) - time.Duration(age)*time.Second; d < -time.Second || d > time.Second {
		t.Errorf("%s: Expires %s is %s after Date %s, want %ds (Cache-Control %s)", url, got[0], exp.Sub(date), h.Get("Date"), age, want.CacheControl)
	}
}

// liveTree is the sample tree and paths with every ASCII punctuation
// character checkPath lets through, to show the servers read them literally,
// and a policy page, served as HTML.
// It holds ":", which only _headers refuses; no server here reads _headers.
func liveTree() tree.Tree {
	tr := sample()
	tr["~mak/autodisc/index.txt"] = tree.Entry{Data: []byte("x")}
	tr[".well-known/a!b&c(d)e+f,g=h@i:j"] = tree.Entry{Data: []byte("x")}
	tr[".well-known/acme-challenge/LoqXcYV8q5ONbJQxbmR7SCTNo3tiAXDfowyjxAjEuX0"] = tree.Entry{Data: []byte("x")}
	tr["about/crawler-policy.html"] = tree.Entry{Data: []byte("<!DOCTYPE html><title>x</title>")} // policy_page
	return tr
}

// liveSite renders kind for liveTree and writes the site to a
// directory it returns, with the rendered file where the server reads it
// (inside the site for the public kinds) and an extra file no rule names.
func liveSite(t *testing.T, k Kind, src tree.Tree, a Access, extra ...tree.Tree) (dir, site, conf string) {
	t.Helper()
	public, separate, err := RenderAccess(src, []Kind{k}, a)
	if err != nil {
		t.Fatal(err)
	}
	dir = livetest.Dir(t)
	site = filepath.Join(dir, "site")
	tr := tree.Tree{}
	for p, e := range src {
		tr[p] = e
	}
	tr["unnamed.txt"] = tree.Entry{Data: []byte("x")}
	for _, x := range extra { // site content the configuration does not name
		for p, e := range x {
			tr[p] = e
		}
	}
	for p, e := range public {
		tr[p] = e
	}
	writeTree(t, site, tr)
	writeTree(t, filepath.Join(dir, "conf"), separate)
	name, _ := k.File()
	return dir, site, filepath.Join(dir, "conf", filepath.FromSlash(name))
}

func TestLiveNginx(t *testing.T) {
	port := serveNginx(t, liveTree(), Access{})
	checkServed(t, port, liveTree(), true)
}

// serveNginx serves src with nginx, configured by the rendered snippet,
// and returns its port.
func serveNginx(t *testing.T, src tree.Tree, a Access, extra ...tree.Tree) int {
	t.Helper()
	livetest.NeedsNginx(t)
	dir, site, conf := liveSite(t, Nginx, src, a, extra...)
	return livetest.Nginx(t, dir, site, conf)
}

func TestLiveApache(t *testing.T) {
	port := serveApache(t, liveTree(), Access{})
	checkServed(t, port, liveTree(), true)
}

// serveApache serves src with Apache, configured by the rendered
// .htaccess, and returns its port.
func serveApache(t *testing.T, src tree.Tree, a Access, extra ...tree.Tree) int {
	t.Helper()
	dir, site, _ := liveSite(t, Htaccess, src, a, extra...)
	// mod_alias answers the CORS preflights (Redirect 204) and redirects.
	return livetest.Apache(t, dir, site, []string{"dir", "alias"}, "DirectoryIndex index.html\n")
}

func TestLiveCaddy(t *testing.T) {
	port := serveCaddy(t, liveTree(), Access{})
	// Caddy's header directive sets fixed values; it cannot compute an
	// Expires from the time of each response, so only Cache-Control is sent.
	checkServed(t, port, liveTree(), false)
}

// serveCaddy serves src with Caddy, configured by the rendered snippet,
// and returns its port. The files are served in a handle block, as sites
// with several handlers (and the tenant setup of docs/commands.md) serve
// them: Caddy runs handle before route and respond, so what the snippet
// does must not depend on those.
func serveCaddy(t *testing.T, src tree.Tree, a Access, extra ...tree.Tree) int {
	t.Helper()
	bin := livetest.NeedsCaddy(t)
	dir, site, conf := liveSite(t, Caddy, src, a, extra...)
	port := livetest.FreePort(t)
	main := filepath.Join(dir, "Caddyfile")
	config := fmt.Sprintf(`{
	admin off
	auto_https off
	storage file_system %[1]s/data
}
http://127.0.0.1:%[2]d {
	root * %[3]s
	import %[4]s
	handle {
		file_server
	}
}
`, dir, port, site, conf)
	if err := os.WriteFile(main, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	validate := exec.Command(bin, "validate", "--config", main, "--adapter", "caddyfile")
	validate.Env = env
	if out, err := validate.CombinedOutput(); err != nil {
		t.Fatalf("caddy validate: %v\n%s", err, out)
	}
	run := exec.Command(bin, "run", "--config", main, "--adapter", "caddyfile")
	run.Env = env
	livetest.Start(t, run, port, filepath.Join(dir, "caddy.log"))
	return port
}
