package serverconf

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/tree"
)

// accessPolicy enforces GPTBot and Ai2Bot-Dolma (a name with a digit) with
// rules whose verdicts need longest match and Allow winning a tie.
var accessPolicy = robots.Policy{Groups: []robots.PolicyGroup{
	{Agents: []string{"GPTBot", "Ai2Bot-Dolma"}, Enforce: true, Rules: []robots.PathRule{
		{Path: "/private/"},
		{Allow: true, Path: "/private/pub/"},
		{Path: "/private/pub/secret"},
		{Path: "/tie/"}, {Allow: true, Path: "/tie/"},
		{Path: "/*.pdf$"},
		{Path: "/caf%C3%A9/"},
		{Path: "/a b/"},
	}},
	{Agents: []string{"PlainBot"}, Rules: []robots.PathRule{{Path: "/private/"}}}, // not enforced
	{Agents: []string{"*"}, Rules: []robots.PathRule{{Path: "/private/"}}},
}}

// accessTree returns the rendered tree (robots.txt) and the site's own
// content, which the configuration does not name.
func accessTree() (rendered, content tree.Tree) {
	rendered = tree.Tree{"robots.txt": {Data: []byte("User-agent: *\nDisallow: /private/\n")}}
	tr := tree.Tree{}
	for _, p := range []string{"private/x.txt", "private/pub/x.txt", "private/pub/secret.txt", "tie/x.txt",
		"doc.pdf", "doc.pdf.txt", "café/x.txt", "cafe/x.txt", "a b/x.txt", "open.txt"} {
		tr[p] = tree.Entry{Data: []byte("x")}
	}
	return rendered, tr
}

// checkAccess asks the server as each client and compares status and
// X-Robots-Tag with what the policy means.
func checkAccess(t *testing.T, port int, noindex bool) {
	t.Helper()
	gpt := "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)"
	dolma := "Ai2Bot-Dolma/1.0"
	for _, c := range []struct {
		ua, path string
		status   int
	}{
		{gpt, "/private/x.txt", 403},
		{gpt, "/private/pub/x.txt", 200},      // longer Allow
		{gpt, "/private/pub/secret.txt", 403}, // longer Disallow again
		{gpt, "/tie/x.txt", 200},              // Allow wins a tie
		{gpt, "/doc.pdf", 403},                // wildcard and end anchor
		{gpt, "/doc.pdf.txt", 200},            // ... which the $ stops
		{gpt, "/caf%C3%A9/x.txt", 403},        // UTF-8, matched decoded
		{gpt, "/cafe/x.txt", 200},
		{gpt, "/a%20b/x.txt", 403},
		{gpt, "/open.txt", 200},
		{gpt, "/open.txt?x=1", 403}, // "/*.pdf$" would need the query: refused
		{gpt, "/robots.txt", 200},
		{gpt, "/robots.txt?x=1", 200},
		{dolma, "/private/x.txt", 403},
		{"Mozilla/5.0 (compatible; NotGPTBotX/1.0)", "/private/x.txt", 200}, // another token
		{"PlainBot/1.0", "/private/x.txt", 200},                             // not enforced
		{"Mozilla/5.0 Firefox/140.0", "/private/x.txt", 200},
	} {
		req, _ := http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d%s", port, c.path), nil)
		req.Header.Set("User-Agent", c.ua)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("%s %s: %v", c.ua, c.path, err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s as %q: status %d, want %d", c.path, c.ua, resp.StatusCode, c.status)
		}
		got := resp.Header.Get("X-Robots-Tag")
		if noindex && resp.StatusCode == 200 && got != "noindex" {
			t.Errorf("%s: X-Robots-Tag %q, want noindex", c.path, got)
		}
		if !noindex && got != "" {
			t.Errorf("%s: X-Robots-Tag %q without noindex", c.path, got)
		}
	}
}

func liveAccess(t *testing.T, serve func(*testing.T, tree.Tree, Access, ...tree.Tree) int) {
	rendered, content := accessTree()
	enf, fs := accessPolicy.Enforcements()
	if len(enf) != 2 || len(fs) != 2 || !strings.Contains(fs[0].Message, `"/*.pdf$" is enforced without the query`) {
		t.Fatalf("Enforcements = %v, %v", enf, fs)
	}
	t.Run("enforce+noindex", func(t *testing.T) {
		checkAccess(t, serve(t, rendered, Access{Enforce: enf, Noindex: true}, content), true)
	})
	t.Run("enforce", func(t *testing.T) {
		checkAccess(t, serve(t, rendered, Access{Enforce: enf}, content), false)
	})
}

func TestLiveAccessNginx(t *testing.T)  { liveAccess(t, serveNginx) }
func TestLiveAccessApache(t *testing.T) { liveAccess(t, serveApache) }
func TestLiveAccessCaddy(t *testing.T)  { liveAccess(t, serveCaddy) }

// _headers can mark noindex but not refuse: the file says so, and so does
// Warnings.
func TestAccessHeaders(t *testing.T) {
	enf, _ := accessPolicy.Enforcements()
	rendered, _ := accessTree()
	a := Access{Enforce: enf, Noindex: true}
	public, _, err := RenderAccess(rendered, []Kind{Headers}, a)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(public[HeadersFile].Data); !strings.Contains(got, "\n/*\n  X-Robots-Tag: noindex\n") {
		t.Errorf("_headers lacks the noindex rule:\n%s", got)
	}
	if w := Warnings([]Kind{Headers, Nginx}, a); len(w) != 1 || !strings.Contains(w[0], "GPTBot, Ai2Bot-Dolma") {
		t.Errorf("Warnings = %q", w)
	}
	if w := Warnings([]Kind{Headers}, Access{Noindex: true}); len(w) != 0 {
		t.Errorf("Warnings without enforce = %q", w)
	}
}

// Caddy matches characters: a path cut inside a UTF-8 sequence cannot be
// enforced there, and Render says so rather than write a wrong matcher.
func TestAccessCaddyRefusesBrokenUTF8(t *testing.T) {
	a := Access{Enforce: []robots.Enforcement{{Agent: "GPTBot", Rules: []robots.PathRule{{Path: "/caf%C3"}}}}}
	rendered, _ := accessTree()
	if _, _, err := RenderAccess(rendered, []Kind{Caddy}, a); err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("err = %v", err)
	}
	if _, _, err := RenderAccess(rendered, []Kind{Nginx, Htaccess}, a); err != nil {
		t.Errorf("nginx and Apache match bytes: %v", err)
	}
}
