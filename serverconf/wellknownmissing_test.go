package serverconf

import (
	"strings"
	"testing"
)

// TestWellKnownMissingRendered: every format answers a /.well-known/ path
// that is not a file with 404, in the form its server reads before a
// site's own catch-all, and leaves the files and redirects discgen writes
// to their own rules.
func TestWellKnownMissingRendered(t *testing.T) {
	public, separate, err := RenderAccess(sectionTree(), Kinds(), Access{Redirects: changePassword})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file  string
		data  []byte
		wants []string // in this order
	}{
		{NginxFile, separate[NginxFile].Data, []string{
			"location = /.well-known/gpc.json {\n",
			"location = /.well-known/change-password {\n    return 302",
			"location ^~ /.well-known/ {\n    try_files $uri @discgen_missing;\n}\n",
			"location @discgen_missing {\n    types { }\n    default_type \"text/plain; charset=utf-8\";\n    return 404 \"Not Found\\n\";\n}\n",
		}},
		{HtaccessFile, public[HtaccessFile].Data, []string{
			"<If \"%{REQUEST_URI} == '/.well-known/gpc.json'\">",
			"RedirectMatch 302",
			"<If \"%{REQUEST_URI} =~ m#^/[.]well-known/# && %{REQUEST_URI} != '/.well-known/change-password' && (! -f %{REQUEST_FILENAME} || %{REQUEST_FILENAME} !~ m#/[.]well-known/#)\">\n",
			"    <IfModule mod_alias.c>\n        Redirect 404\n    </IfModule>\n</If>\n",
		}},
		{CaddyFile, separate[CaddyFile].Data, []string{
			"path /.well-known/gpc.json",
			"redir /.well-known/change-password",
			"@discgen_well_known expression `{http.request.orig_uri.path}.matches(r\"^/\\.well-known/\") && {http.vars.root} != null && {http.vars.root} != \"\"`\n",
			"handle @discgen_well_known {\n\trewrite * {http.request.orig_uri}\n\tfile_server\n}\n",
		}},
		{RedirectsFile, public[RedirectsFile].Data, []string{
			"\n/.well-known/change-password /account/password 302\n",
			"\n/.well-known/* /404.html 404\n",
		}},
	} {
		got := string(c.data)
		at := 0
		for _, w := range c.wants {
			i := strings.Index(got[at:], w)
			if i < 0 {
				t.Errorf("%s lacks %q after offset %d:\n%s", c.file, w, at, got)
				break
			}
			at += i + len(w)
		}
	}

	// Without a redirect: _redirects still holds the 404 rule, and no
	// format excludes a path from it.
	public, separate, err = RenderAccess(sectionTree(), Kinds(), Access{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(separate[NginxFile].Data); !strings.Contains(got, "location ^~ /.well-known/") {
		t.Errorf("nginx without a redirect lacks the well-known location:\n%s", got)
	}
	if got := string(public[RedirectsFile].Data); !strings.HasSuffix(got, "\n/.well-known/* /404.html 404\n") || strings.Contains(got, "change-password") {
		t.Errorf("_redirects without a redirect:\n%s", got)
	}
	if got := string(public[HtaccessFile].Data); strings.Contains(got, "!= '/") || !strings.Contains(got, "Redirect 404") || strings.Contains(got, "Rewrite") {
		t.Errorf(".htaccess without a redirect:\n%s", got)
	}

	// Cloudflare Pages reads the same _redirects but takes no 404 status
	// (it skips the line): the file says so, and the build stays quiet, as
	// it does for what every format does.
	if got := string(public[RedirectsFile].Data); !strings.Contains(got, "Cloudflare Pages") {
		t.Errorf("_redirects does not say what Cloudflare Pages does:\n%s", got)
	}
	if w := Warnings(Kinds(), Access{}); len(w) != 0 {
		t.Errorf("warnings: %q", w)
	}
}
