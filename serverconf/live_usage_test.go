package serverconf

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/aipref"

	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/tree"
)

// usageSite states site-wide preferences and path-scoped ones that need the
// longest match (/blog/ then /blog/private/), a wildcard with an end anchor
// and a UTF-8 path matched decoded.
var usageSite = &robots.Usage{
	Prefs: aipref.Prefs{TrainAI: aipref.PrefNo, Search: aipref.PrefYes, AIInput: aipref.PrefYes},
	Paths: []robots.UsagePath{
		{Path: "/blog/private/", Prefs: aipref.Prefs{Search: aipref.PrefNo}},
		{Path: "/blog/", Prefs: aipref.Prefs{TrainAI: aipref.PrefYes}},
		{Path: "/*.pdf$", Prefs: aipref.Prefs{TrainAI: aipref.PrefYes, Search: aipref.PrefNo}},
		{Path: "/caf%C3%A9/", Prefs: aipref.Prefs{Search: aipref.PrefNo}},
	},
	ContentUsage: true, ContentSignal: true,
}

// usageOnlyPaths states preferences for one path only: elsewhere no header.
var usageOnlyPaths = &robots.Usage{
	Paths:        []robots.UsagePath{{Path: "/blog/", Prefs: aipref.Prefs{TrainAI: aipref.PrefNo}}},
	ContentUsage: true,
}

func usageContent() tree.Tree {
	tr := tree.Tree{}
	for _, p := range []string{"open.txt", "blog/x.txt", "blog/private/x.txt", "doc.pdf", "doc.pdf.txt", "café/x.txt", "cafe/x.txt"} {
		tr[p] = tree.Entry{Data: []byte("x")}
	}
	return tr
}

// checkUsageHeader requests each path and compares its Content-Usage
// header; "" means none.
func checkUsageHeader(t *testing.T, port int, want map[string]string) {
	t.Helper()
	for path, w := range want {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d%s", port, path))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: status %s", path, resp.Status)
			continue
		}
		got := resp.Header.Values("Content-Usage")
		if w == "" && len(got) != 0 || w != "" && (len(got) != 1 || got[0] != w) {
			t.Errorf("%s: Content-Usage %q, want %q", path, got, w)
		}
	}
}

func liveUsage(t *testing.T, serve func(*testing.T, tree.Tree, Access, ...tree.Tree) int) {
	rendered := tree.Tree{"robots.txt": {Data: []byte("User-agent: *\nDisallow:\nContent-Usage: train-ai=n\n")}}
	t.Run("site and paths", func(t *testing.T) {
		checkUsageHeader(t, serve(t, rendered, Access{Usage: usageSite}, usageContent()), map[string]string{
			"/robots.txt":         "train-ai=n, search=y", // a file discgen names
			"/open.txt":           "train-ai=n, search=y",
			"/blog/x.txt":         "train-ai=y, search=y",
			"/blog/private/x.txt": "train-ai=n, search=n", // its own, over the site's, not /blog/'s
			"/doc.pdf":            "train-ai=y, search=n",
			"/doc.pdf.txt":        "train-ai=n, search=y", // the $ stops the match
			"/caf%C3%A9/x.txt":    "train-ai=n, search=n",
			"/cafe/x.txt":         "train-ai=n, search=y",
		})
	})
	t.Run("paths only", func(t *testing.T) {
		checkUsageHeader(t, serve(t, rendered, Access{Usage: usageOnlyPaths}, usageContent()), map[string]string{
			"/robots.txt": "",
			"/open.txt":   "",
			"/blog/x.txt": "train-ai=n",
		})
	})
}

func TestLiveUsageNginx(t *testing.T)  { liveUsage(t, serveNginx) }
func TestLiveUsageApache(t *testing.T) { liveUsage(t, serveApache) }
func TestLiveUsageCaddy(t *testing.T)  { liveUsage(t, serveCaddy) }

// _headers writes a rule per path, shortest first, so that the joined
// value's last key (the longest path's) decides; it cannot match a "*"
// inside a path: the categories such a path gives another value than a
// shorter path are left out, with a warning, rather than read there with
// the shorter path's value.
func TestUsageHeadersFile(t *testing.T) {
	rendered := tree.Tree{"robots.txt": {Data: []byte("User-agent: *\nDisallow:\n")}}
	a := Access{Usage: usageSite}
	public, _, err := RenderAccess(rendered, []Kind{Headers}, a)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(public[HeadersFile].Data); strings.Contains(got, "Content-Usage") {
		t.Errorf("_headers says train-ai and search where /*.pdf$ says otherwise:\n%s", got)
	}
	w := Warnings([]Kind{Headers}, a)
	if len(w) != 3 || !strings.Contains(w[0], `"/*.pdf$"`) || !strings.Contains(w[1], "train_ai is left out") || !strings.Contains(w[2], "search is left out") {
		t.Errorf("Warnings = %q", w)
	}
	u := *usageSite
	u.Paths = slices.DeleteFunc(slices.Clone(u.Paths), func(p robots.UsagePath) bool { return p.Path == "/*.pdf$" })
	a = Access{Usage: &u}
	public, _, err = RenderAccess(rendered, []Kind{Headers}, a)
	if err != nil {
		t.Fatal(err)
	}
	got := string(public[HeadersFile].Data)
	want := "\n/*\n  Content-Usage: train-ai=n, search=y\n" +
		"\n/blog/*\n  Content-Usage: train-ai=y, search=y\n" +
		"\n/caf%C3%A9/*\n  Content-Usage: train-ai=n, search=n\n" +
		"\n/blog/private/*\n  Content-Usage: train-ai=n, search=n\n"
	if !strings.HasSuffix(got, want) {
		t.Errorf("_headers ends:\n%s\nwant the end:\n%s", got[strings.LastIndex(got, "Access-Control-Allow-Origin"):], want)
	}
	if w := Warnings([]Kind{Headers}, a); len(w) != 0 {
		t.Errorf("Warnings = %q", w)
	}
	if w := Warnings([]Kind{Nginx, Htaccess, Caddy}, Access{Usage: usageSite}); len(w) != 0 {
		t.Errorf("Warnings for servers that match every path = %q", w)
	}
}

// _headers joins the values of every matching rule, so a longer path
// cannot unset a key a shorter one states: such a key is left out of
// every rule, with a warning, rather than read at a path the manifest
// says nothing of it.
func TestUsageHeadersFileCannotUnset(t *testing.T) {
	u := &robots.Usage{
		Prefs: aipref.Prefs{TrainAI: aipref.PrefNo},
		Paths: []robots.UsagePath{
			{Path: "/", Prefs: aipref.Prefs{Search: aipref.PrefNo}},
			{Path: "/a/", Prefs: aipref.Prefs{AIInput: aipref.PrefNo}},
		},
		ContentUsage: true,
	}
	a := Access{Usage: u}
	public, _, err := RenderAccess(tree.Tree{"robots.txt": {Data: []byte("User-agent: *\nDisallow:\n")}}, []Kind{Headers}, a)
	if err != nil {
		t.Fatal(err)
	}
	got := string(public[HeadersFile].Data)
	if strings.Contains(got, "search") || !strings.Contains(got, "\n/a/*\n  Content-Usage: train-ai=n\n") {
		t.Errorf("_headers:\n%s", got)
	}
	if w := Warnings([]Kind{Headers}, a); len(w) != 1 || !strings.Contains(w[0], "cannot unset search at /a/") {
		t.Errorf("Warnings = %q", w)
	}
}
