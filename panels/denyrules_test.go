//go:build linux

package panels

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/internal/testing/testenv"
)

// docBlock returns the fenced block of docs/shared-host.md in the
// language lang that follows the paragraph about a tenant's manifest
// being served, unindented.
func docBlock(t *testing.T, lang string) string {
	t.Helper()
	data, err := os.ReadFile("../docs/shared-host.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "Serving it is not intended")
	if !ok {
		t.Fatal("docs/shared-host.md: no paragraph on serving a tenant's manifest")
	}
	_, rest, ok = strings.Cut(rest, "```"+lang+"\n")
	if !ok {
		t.Fatalf("docs/shared-host.md: no ```%s block after the paragraph on serving a tenant's manifest", lang)
	}
	block, _, _ := strings.Cut(rest, "```")
	var b strings.Builder
	for l := range strings.Lines(block) {
		b.WriteString(strings.TrimPrefix(l, "  "))
	}
	return b.String()
}

// TestManifestDenyRules serves a user's directory, as a userdir server
// does, with each deny rule docs/shared-host.md gives for a tenant's
// autodisc.yaml, on the real server: the manifest is refused however its
// path is written, and the tenant's built files are served.
func TestManifestDenyRules(t *testing.T) {
	testenv.NeedsLong(t)
	dir := livetest.Dir(t)
	home := filepath.Join(dir, "home")
	pub := filepath.Join(home, "alice", "public_html")
	must(t, os.MkdirAll(filepath.Join(pub, "autodisc"), 0o755))
	must(t, os.WriteFile(filepath.Join(pub, "autodisc.yaml"), []byte("version: 1\n# the manifest\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(pub, "autodisc", "description.txt"), []byte("Alice\n"), 0o644))
	www := filepath.Join(dir, "www")
	must(t, os.MkdirAll(www, 0o755))

	check := func(t *testing.T, port, denied int) {
		t.Helper()
		for _, p := range []string{"/~alice/autodisc.yaml", "/~alice/autodisc%2Eyaml", "/~alice/./autodisc.yaml"} {
			code, body := get(t, port, p)
			if code != denied || strings.Contains(body, "the manifest") {
				t.Errorf("%s: %d %q, want %d", p, code, body, denied)
			}
		}
		if code, body := get(t, port, "/~alice/autodisc/description.txt"); code != 200 || body != "Alice\n" {
			t.Errorf("/~alice/autodisc/description.txt: %d %q, want 200 and the file", code, body)
		}
	}

	t.Run("nginx", func(t *testing.T) {
		d := livetest.Dir(t)
		inc := filepath.Join(d, "users.conf")
		must(t, os.WriteFile(inc, []byte(docBlock(t, "nginx")+
			fmt.Sprintf("location ~ ^/~([^/]+)(/.*)?$ { alias %s/$1/public_html$2; }\n", home)), 0o644))
		check(t, livetest.Nginx(t, d, www, inc), 404)
	})
	t.Run("apache", func(t *testing.T) {
		rule := strings.ReplaceAll(docBlock(t, "apache"), `"/home/*/public_html"`, `"`+home+`/*/public_html"`)
		if !strings.Contains(rule, home) {
			t.Fatalf("the Apache block names no /home/*/public_html:\n%s", rule)
		}
		extra := fmt.Sprintf("AliasMatch \"^/~([^/]+)(/.*)?$\" \"%s/$1/public_html$2\"\n<Directory \"%s\">\n\tRequire all granted\n</Directory>\n%s", home, home, rule)
		check(t, livetest.Apache(t, livetest.Dir(t), www, []string{"alias"}, extra), 403)
	})
	t.Run("caddy", func(t *testing.T) {
		site := docBlock(t, "caddy") + fmt.Sprintf(`@user path_regexp user ^/~([^/]+)(/.*)?$
handle @user {
	root * %s/{re.user.1}/public_html
	rewrite * {re.user.2}
	file_server
}
`, home)
		check(t, livetest.Caddy(t, livetest.Dir(t), site), 404)
	})
}

func get(t *testing.T, port int, p string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d/", port), nil)
	must(t, err)
	req.URL.Opaque = p // as written: no cleaning, no re-escaping
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	must(t, err)
	return resp.StatusCode, string(body)
}
