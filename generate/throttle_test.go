package generate

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/serverconf"
)

const throttleSite = `version: 1
site:
  url: https://example.org/
agents:
  - presets: [ai-training]
    except_agents: [CCBot]
    allow: [/]
    throttle: {rate: 1/s, burst: 10}
  - names: [CCBot]
    allow: [/]
    throttle: {rate: 30/m}
  - names: ["*"]
    disallow: [/private/]
`

func loadThrottle(t *testing.T) *model.Site {
	t.Helper()
	doc, errs := manifest.LoadSite(filepath.Join(t.TempDir(), "site.yaml"), []byte(throttleSite), "")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	return validated(t, doc)
}

// TestSiteThrottle: a class per throttled group, with its presets'
// crawlers (less except_agents) in order, its rate and burst, and the
// site's ID.
func TestSiteThrottle(t *testing.T) {
	th := SiteThrottle(loadThrottle(t))
	if th == nil || len(th.Classes) != 2 {
		t.Fatalf("throttle %+v", th)
	}
	c0, c1 := th.Classes[0], th.Classes[1]
	if len(c0.Names) < 5 || !strings.Contains(strings.Join(c0.Names, " "), "GPTBot") || strings.Contains(strings.Join(c0.Names, " "), "CCBot") {
		t.Errorf("class 0 names %v", c0.Names)
	}
	if c0.Rate != (serverconf.Rate{N: 1}) || c0.Burst != 10 {
		t.Errorf("class 0 %v burst %d", c0.Rate, c0.Burst)
	}
	if strings.Join(c1.Names, " ") != "CCBot" || c1.Rate != (serverconf.Rate{N: 30, PerMinute: true}) || c1.Burst != 0 {
		t.Errorf("class 1 %+v", c1)
	}
	if th.ID != siteID("https://example.org/") {
		t.Errorf("ID %q", th.ID)
	}
}

// TestThrottleWarnings warns at each throttle key for each kind that
// cannot throttle, naming it, and not for nginx.
func TestThrottleWarnings(t *testing.T) {
	doc := loadThrottle(t)
	l := ThrottleWarnings(doc, []serverconf.Kind{serverconf.Nginx, serverconf.Htaccess, serverconf.Caddy, serverconf.Headers})
	if len(l) != 6 {
		t.Fatalf("warnings %v", l)
	}
	for i, want := range []string{".htaccess", "Caddy", "_headers"} {
		if d := l[i]; d.Path != "agents[0].throttle" || d.Pos.Line != 8 || !strings.Contains(d.Message, want) {
			t.Errorf("warning %d: %v", i, d)
		}
	}
	if d := l[3]; d.Path != "agents[1].throttle" || d.Pos.Line != 11 {
		t.Errorf("warning 3: %v", d)
	}
	if l := ThrottleWarnings(doc, []serverconf.Kind{serverconf.Nginx}); len(l) != 0 {
		t.Errorf("warnings for nginx: %v", l)
	}
}
