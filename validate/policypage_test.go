package validate_test

import (
	"strings"
	"testing"
)

// TestPolicyPagePath: the page's path is a path of the site's own that
// ends in .html; each wrong one is an error at the key's value.
func TestPolicyPagePath(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"/crawler-policy.html", ""},
		{"/about/crawlers.html", ""},
		{"/~host/policy.html", ""}, // not in /~*/ but in no delegation here
		{"/autodisc/policy.html", "is under /autodisc/, which the build writes"},
		{"/~alice/policy.html", "lies in /~*/, which delegations[0] delegates"},
		{"/projects/x/policy.html", "lies in /projects/, which delegations[1] delegates"},
		{"/crawler-policy.txt", "does not end in .html"},
		{"/../policy.html", "has a segment that begins with a dot"},
		{"/.well-known/policy.html", "has a segment that begins with a dot"},
		{"crawler-policy.html", "does not begin with /"},
		{"/a//b.html", "has an empty segment"},
		{"/a b.html", "has a character other than"},
		{"/p.html?x", "does not end in .html"},
	} {
		deleg := ""
		if c.path != "/~host/policy.html" {
			deleg = "delegations:\n  - {path: \"~*\", tenants: \"*/public_html\"}\n  - {path: projects, inline: {description: p}}\n"
		}
		src := "version: 1\nsite: {url: \"https://example.org/\"}\npolicy_page: \"" + c.path + "\"\n" + deleg
		got := siteDiags(t, src)
		switch {
		case c.want == "" && len(got) != 0:
			t.Errorf("%s: %q, want no error", c.path, got)
		case c.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], "3:14: policy_page: ") || !strings.Contains(got[0], c.want)):
			t.Errorf("%s: %q, want one error at 3:14 with %q", c.path, got, c.want)
		}
	}
}
