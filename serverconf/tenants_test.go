package serverconf

import (
	"regexp"
	"strings"
	"testing"

	"github.com/discgen/discgen/tree"
)

var userdir = TenantSpace{Space: "/~*/", Glob: "/home/*/public_html/autodisc.yaml"}

// TestTenantRegexp checks what the tenant rules match, with Go's regexp
// on the RE2 form Caddy reads (the PCRE form differs only in how non-ASCII
// is written).
func TestTenantRegexp(t *testing.T) {
	base, err := tenantRegexp(userdir.Space, true, false, "")
	if err != nil {
		t.Fatal(err)
	}
	json, _ := tenantRegexp(userdir.Space, true, false, ".json")
	txt, _ := tenantRegexp(userdir.Space, true, false, ".txt")
	for _, c := range []struct {
		path           string
		base, txt, jsn bool
	}{
		{"/~alice/autodisc/index.txt", true, true, false},
		{"/~alice/autodisc/subdirectories.txt", true, true, false},
		{"/~alice/blog/autodisc/description.txt", true, true, false},
		{"/~alice/a/b/autodisc/feeds.txt", true, true, false},
		{"/~alice/autodisc/x-keys.json", true, false, true},
		{"/~alice/autodisc/x-keys.JSON", true, false, true},
		{"/~alice/autodisc/x-contact", true, false, false},
		{"/~a.b/autodisc/robots.txt", true, true, false},
		{"/~/autodisc/index.txt", false, false, false},          // no name
		{"/~../autodisc/index.txt", false, false, false},        // dots only
		{"/~./autodisc/index.txt", false, false, false},         // dots only
		{"/~alice/autodisc/evil.php", false, false, false},      // not an autodisc name
		{"/~alice/autodisc/Index.txt", false, false, false},     // names are exact
		{"/~alice/autodisc/", false, false, false},              // the directory
		{"/~alice/autodisc/x-a/index.txt", false, false, false}, // below autodisc/
		{"/alice/autodisc/index.txt", false, false, false},      // outside the space
		{"/autodisc/index.txt", false, false, false},            // the site's own
		{"/x/~alice/autodisc/index.txt", false, false, false},   // anchored
	} {
		for _, m := range []struct {
			re   string
			want bool
		}{{base, c.base}, {txt, c.txt}, {json, c.jsn}} {
			if got := regexp.MustCompile(m.re).MatchString(c.path); got != m.want {
				t.Errorf("%s =~ %s: %v, want %v", c.path, m.re, got, m.want)
			}
		}
	}
	// Literal parts of the space are matched as written, escapes decoded.
	re, err := tenantRegexp("/caf%C3%A9-*/s$t/", true, false, "")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(re).MatchString("/café-bob/s$t/autodisc/index.txt") || regexp.MustCompile(re).MatchString("/cafe-bob/s$t/autodisc/index.txt") {
		t.Errorf("%s", re)
	}
}

func TestTenantAlias(t *testing.T) {
	for _, c := range []struct {
		ts   TenantSpace
		want string
	}{
		{userdir, "/home/$1/public_html/$2"},
		{TenantSpace{"/sites/*/~*/", "/srv/*/home/user-*/www/autodisc.yaml"}, "/srv/$1/home/user-$2/www/$3"},
	} {
		got, err := tenantAlias(c.ts)
		if err != nil || got != c.want {
			t.Errorf("%v: %q, %v; want %q", c.ts, got, err, c.want)
		}
	}
}

// TestTenantRefused checks that what cannot be written faithfully is
// refused, in every kind that would write it, and nothing is rendered.
func TestTenantRefused(t *testing.T) {
	for _, c := range []struct {
		ts    TenantSpace
		kinds []Kind
		want  string
	}{
		{TenantSpace{"/~*/", "/home/?*/public_html/autodisc.yaml"}, []Kind{Nginx}, "cannot be filled from a URL"},
		{TenantSpace{"/~*/", "/home/[a-z]*/public_html/autodisc.yaml"}, []Kind{Nginx}, "cannot be filled from a URL"},
		{TenantSpace{"/~*/", "/home/users/*.yaml"}, []Kind{Nginx}, "manifest's file name"},
		{TenantSpace{"/~*/", "/home/*/*/autodisc.yaml"}, []Kind{Nginx}, "2 '*'"},
		{TenantSpace{"/~*/", "home/*/autodisc.yaml"}, []Kind{Nginx}, "absolute"},
		{TenantSpace{"/~*/", "/home/*/public html/autodisc.yaml"}, []Kind{Nginx}, "' '"},
		{TenantSpace{"/~*/", "/home/*/x\"; }\n/autodisc.yaml"}, []Kind{Nginx}, "'\"'"},
		{TenantSpace{"/~*/", "/home/*/$x/autodisc.yaml"}, []Kind{Nginx}, "'$'"},
		{TenantSpace{"/%FF*/", "/home/*/autodisc.yaml"}, []Kind{Caddy}, "UTF-8"},
		{TenantSpace{"/~*/\n# x/", "/home/*/x/autodisc.yaml"}, []Kind{Nginx, Htaccess, Caddy}, "canonical form"},
		{TenantSpace{"~*", "/home/*/autodisc.yaml"}, []Kind{Nginx, Htaccess, Caddy}, "canonical form"},
		{TenantSpace{"/", "/home/autodisc.yaml"}, []Kind{Nginx, Htaccess, Caddy}, "canonical form"},
		{TenantSpace{"/" + strings.Repeat("*/", 9), "/h/" + strings.Repeat("*/", 9) + "autodisc.yaml"}, []Kind{Nginx, Htaccess, Caddy}, "more than 8"},
	} {
		for _, k := range c.kinds {
			pub, sep, err := RenderAccess(sample(), []Kind{k}, Access{Tenants: []TenantSpace{c.ts}})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), string(k)+": ") {
				t.Errorf("%s %v: %v, want an error with %q", k, c.ts, err, c.want)
			}
			if len(pub) != 0 || len(sep) != 0 {
				t.Errorf("%s %v: rendered %d and %d files after an error", k, c.ts, len(pub), len(sep))
			}
		}
	}
	// What nginx refuses for its alias, Apache and Caddy do not need.
	for _, k := range []Kind{Htaccess, Caddy} {
		if _, _, err := RenderAccess(sample(), []Kind{k}, Access{Tenants: []TenantSpace{{"/~*/", "/home/?*/autodisc.yaml"}}}); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
}

// TestTenantFiles checks where each kind writes the tenants' rules: nginx
// and Caddy in their snippet, Apache in a file of its own (an .htaccess in
// the site does not reach user directories), _headers nowhere, with a
// warning.
func TestTenantFiles(t *testing.T) {
	a := Access{Tenants: []TenantSpace{userdir}}
	pub, sep, err := RenderAccess(sample(), Kinds(), a)
	if err != nil {
		t.Fatal(err)
	}
	plainPub, plainSep, _ := Render(sample(), Kinds())
	if string(pub[HeadersFile].Data) != string(plainPub[HeadersFile].Data) || string(pub[HtaccessFile].Data) != string(plainPub[HtaccessFile].Data) {
		t.Errorf("the public files change with tenants")
	}
	for _, name := range []string{NginxFile, CaddyFile} {
		got, plain := string(sep[name].Data), string(plainSep[name].Data)
		if !strings.Contains(got, "# Tenants of /~*/") || strings.Contains(plain, "Tenants of") {
			t.Errorf("%s: no rule for the tenants:\n%s", name, got)
		}
	}
	if !strings.Contains(string(sep[NginxFile].Data), `alias "/home/$1/public_html/$2";`) {
		t.Errorf("nginx: no alias:\n%s", sep[NginxFile].Data)
	}
	conf := string(sep[TenantsApacheFile].Data)
	if strings.Count(conf, "<LocationMatch ") != 1+len(tenantExtensions) || !strings.Contains(conf, `ForceType "text/plain; charset=utf-8"`) {
		t.Errorf("%s:\n%s", TenantsApacheFile, conf)
	}
	if _, ok := plainSep[TenantsApacheFile]; ok {
		t.Errorf("%s written without tenants", TenantsApacheFile)
	}
	if w := Warnings(Kinds(), a); len(w) != 1 || !strings.Contains(w[0], "_headers has no rules for tenant directories") {
		t.Errorf("warnings: %q", w)
	}
	if w := Warnings([]Kind{Nginx}, a); len(w) != 0 {
		t.Errorf("warnings for nginx: %q", w)
	}
	// Two delegations, two rules each in its order; the same input, the
	// same bytes.
	two := Access{Tenants: []TenantSpace{userdir, {"/members/*/", "/srv/members/*/autodisc.yaml"}}}
	_, s1, _ := RenderAccess(tree.Tree{}, []Kind{Nginx, Caddy, Htaccess}, two)
	_, s2, _ := RenderAccess(tree.Tree{}, []Kind{Nginx, Caddy, Htaccess}, two)
	for name, e := range s1 {
		if string(e.Data) != string(s2[name].Data) {
			t.Errorf("%s differs between two renders", name)
		}
		if i, j := strings.Index(string(e.Data), "Tenants of /~*/"), strings.Index(string(e.Data), "Tenants of /members/*/"); i < 0 || j < i {
			t.Errorf("%s: rules missing or out of order", name)
		}
	}
}

// TestTenantsSiteWide checks that apache/discgen-tenants.conf repeats the
// site's own headers for the tenants, each section scoped to the tenant
// space so that the site's paths are left to its .htaccess, and that the
// .htaccess does not change. The live tenant tests of cmd/discgen check
// what Apache sends.
func TestTenantsSiteWide(t *testing.T) {
	a := Access{Noindex: true, Usage: usageSite, Rights: rightsSite()}
	site, _, err := RenderAccess(sample(), []Kind{Htaccess}, a)
	if err != nil {
		t.Fatal(err)
	}
	a.Tenants = []TenantSpace{userdir}
	pub, sep, err := RenderAccess(sample(), []Kind{Htaccess}, a)
	if err != nil {
		t.Fatal(err)
	}
	if string(pub[HtaccessFile].Data) != string(site[HtaccessFile].Data) {
		t.Errorf("the .htaccess changes with tenants")
	}
	conf := string(sep[TenantsApacheFile].Data)
	scope := `<If "%{REQUEST_URI} =~ m#^/\x7e(?:[^/]*[^/.][^/]*)/#`
	// One section each: noindex, the site's usage and its 4 paths, the
	// licence, 5 tdm locations; and the usage and tdm guards.
	if n := strings.Count(conf, "<If "); n != 14 || strings.Count(conf, scope) != n {
		t.Errorf("%d <If> sections, %d scoped to the space, want 14 each:\n%s", n, strings.Count(conf, scope), conf)
	}
	for _, want := range []string{
		`Header always set X-Robots-Tag "noindex"`,
		`Header always set Content-Usage "train-ai=n, search=y"`,
		` && %{THE_REQUEST} =~ m#^\S+ /blog/private/#">`,
		`Header always set Link "<https://www.example.org/license.xml>; rel=\"license\"; type=\"application/rsl+xml\""`,
		`Header always set tdm-reservation "1"`,
		`Header always unset tdm-policy`,
	} {
		if !strings.Contains(conf, want) {
			t.Errorf("no %s in:\n%s", want, conf)
		}
	}
	// Enforced crawlers are refused in the space, as in the .htaccess.
	enf, _ := accessPolicy.Enforcements()
	_, sep, _ = RenderAccess(sample(), []Kind{Htaccess}, Access{Enforce: enf, Tenants: a.Tenants})
	conf = string(sep[TenantsApacheFile].Data)
	if !strings.Contains(conf, "    RewriteCond %{ENV:DISCGEN_DENY_1} =1\n    RewriteCond %{REQUEST_URI} \"^/\\x7e(?:[^/]*[^/.][^/]*)/\"\n    RewriteCond %{REQUEST_URI} !=/robots.txt\n    RewriteRule ^ - [F]\n") {
		t.Errorf("no refusal scoped to the space:\n%s", conf)
	}
	// Without site-wide headers, only the autodisc files' sections.
	_, plain, _ := RenderAccess(sample(), []Kind{Htaccess}, Access{Tenants: a.Tenants})
	if c := string(plain[TenantsApacheFile].Data); strings.Contains(c, "<If ") || strings.Contains(c, "site's headers") {
		t.Errorf("site-wide sections without site-wide headers:\n%s", c)
	}
}
