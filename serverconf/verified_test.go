package serverconf

import (
	"bytes"
	"strings"
	"testing"
)

// TestVerifiedFiles renders a Verified: nginx gets its http-level file and
// one refusal in discgen.conf, Apache its VirtualHost file, Caddy
// matchers in discgen.caddy; _headers is unchanged; each prefix is
// written; a second render gives the same bytes.
func TestVerifiedFiles(t *testing.T) {
	rendered, _ := accessTree()
	v := verifiedFixture(t, true)
	kinds := []Kind{Headers, Htaccess, Nginx, Caddy}
	public, separate, err := RenderAccess(rendered, kinds, Access{Verified: v})
	if err != nil {
		t.Fatal(err)
	}
	plainPublic, plainSep, _ := RenderAccess(rendered, kinds, Access{})
	if !bytes.Equal(public[HeadersFile].Data, plainPublic[HeadersFile].Data) || !bytes.Equal(public[HtaccessFile].Data, plainPublic[HtaccessFile].Data) {
		t.Error("verified changed _headers or .htaccess")
	}
	for _, f := range []string{NginxVerifiedFile, ApacheVerifiedFile} {
		if _, ok := plainSep[f]; ok {
			t.Errorf("%s written without verified", f)
		}
	}
	nginxHTTP := string(separate[NginxVerifiedFile].Data)
	apache := string(separate[ApacheVerifiedFile].Data)
	caddy := string(separate[CaddyFile].Data)
	for _, want := range []string{"geo $discgen_example_org_test_1_from {\n    default 0;\n    127.0.0.2/32 1;\n    2001:db8:1::/48 1;\n}\n",
		"map \"$discgen_example_org_test_cdn:$http_x_verified_bot\" $discgen_example_org_test_cdnok",
		"\"100:/robots.txt\" 0;\n    \"~^100:\" 1;\n"} {
		if !strings.Contains(nginxHTTP, want) {
			t.Errorf("%s lacks %q:\n%s", NginxVerifiedFile, want, nginxHTTP)
		}
	}
	if got := string(separate[NginxFile].Data); !strings.Contains(got, "if ($discgen_example_org_test_deny) { return 403; }\n") {
		t.Errorf("%s lacks the refusal:\n%s", NginxFile, got)
	}
	for _, want := range []string{"AuthMerging And", "Require ip 127.0.0.2/32 2001:db8:1::/48\n", "Require expr \"%{HTTP:X-Verified-Bot} == 'true'\"", "Require ip 127.0.0.5/32\n"} {
		if !strings.Contains(apache, want) {
			t.Errorf("%s lacks %q:\n%s", ApacheVerifiedFile, want, apache)
		}
	}
	for _, want := range []string{"\tnot remote_ip 127.0.0.3/32 192.0.2.0/24\n", "\tnot path /robots.txt\n", "\tnot {\n\t\theader X-Verified-Bot true\n\t\tremote_ip 127.0.0.5/32\n\t}\n", "handle @discgen_verified_2 {\n\trespond 403\n}\n"} {
		if !strings.Contains(caddy, want) {
			t.Errorf("%s lacks %q:\n%s", CaddyFile, want, caddy)
		}
	}
	_, again, _ := RenderAccess(rendered, kinds, Access{Verified: verifiedFixture(t, true)})
	for p, e := range separate {
		if !bytes.Equal(e.Data, again[p].Data) {
			t.Errorf("%s differs between two renders", p)
		}
	}
}

// TestVerifiedApacheLines keeps every line short, with a large list of
// prefixes ("Require ip" lines) and the user-agent expression: Apache
// refuses configuration lines over 8 KiB.
func TestVerifiedApacheLines(t *testing.T) {
	v := verifiedFixture(t, false)
	for range 10 {
		v.Crawlers[0].Prefixes = append(v.Crawlers[0].Prefixes, v.Crawlers[0].Prefixes...)
	}
	for _, l := range strings.Split(string(apacheVerified(v)), "\n") {
		if len(l) > 2048 {
			t.Fatalf("a line of %d bytes", len(l))
		}
	}
}
