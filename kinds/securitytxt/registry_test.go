package securitytxt

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/manifest"
)

// TestRegistry reads the dated copy of IANA's security.txt Fields
// registry: its date, every field (CSAF and Bug-Bounty among them), and
// each field is one the linter reads, with the registry's rule on
// repeating it.
func TestRegistry(t *testing.T) {
	r := Registry()
	if r.Updated != "2026-03-07" || !strings.HasPrefix(r.Source, "https://www.iana.org/assignments/security-txt-fields") {
		t.Errorf("registry of %q from %q", r.Updated, r.Source)
	}
	var names []string
	for _, f := range r.Fields {
		names = append(names, f.Name)
		if !IsField(f.Name) || !IsField(strings.ToUpper(f.Name)) {
			t.Errorf("%s is in the registry but not read", f.Name)
		}
		if f.Status != "current" {
			t.Errorf("%s: status %q", f.Name, f.Status)
		}
	}
	if got := strings.Join(names, ","); got != "Acknowledgments,Canonical,Contact,CSAF,Expires,Encryption,Hiring,Policy,Preferred-Languages,Bug-Bounty" {
		t.Errorf("fields %s", got)
	}
	for name, multiple := range map[string]bool{"Contact": true, "CSAF": true, "Expires": false, "Preferred-Languages": false, "Bug-Bounty": false} {
		if f, ok := r.Field(name); !ok || f.Multiple != multiple {
			t.Errorf("%s: %+v, %v", name, f, ok)
		}
	}
}

// TestBugBounty: the registry's Bug-Bounty field is rendered from the
// model as True or False after CSAF, and linted: True or False (any case),
// once.
func TestBugBounty(t *testing.T) {
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	yes := true
	out, err := RenderFile(File{Contact: []string{"mailto:a@example.org"}, Expires: "2027-06-01T00:00:00Z", CSAF: []string{"https://example.org/provider-metadata.json"}, BugBounty: &yes}, now, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(out), "CSAF: https://example.org/provider-metadata.json\nBug-Bounty: True\n") {
		t.Errorf("rendered:\n%s", out)
	}
	no := false
	out, _ = RenderFile(File{Contact: []string{"mailto:a@example.org"}, Expires: "2027-06-01T00:00:00Z", BugBounty: &no}, now, "")
	if !strings.HasSuffix(string(out), "Bug-Bounty: False\n") {
		t.Errorf("rendered:\n%s", out)
	}
	base := "Contact: mailto:a@example.org\nExpires: 2027-06-01T00:00:00Z\n"
	for _, c := range []struct{ name, extra, want string }{
		{"true", "Bug-Bounty: True\n", ""},
		{"lower case", "bug-bounty: false\n", ""},
		{"not a boolean", "Bug-Bounty: maybe\n", "3: error S001 bug_bounty: \"maybe\" is not True or False"},
		{"twice", "Bug-Bounty: True\nBug-Bounty: True\n", "4: error S006 Bug-Bounty is given again (first on line 3)"},
		{"languages twice", "Preferred-Languages: en\nPreferred-Languages: fr\n", "4: error S006 Preferred-Languages is given again (first on line 3)"},
	} {
		got := LintFile([]byte(base+c.extra), now)
		var s string
		for _, d := range got {
			s += strings.Join([]string{strconv.Itoa(d.Line) + ":", d.Severity.String(), d.Code, d.Message}, " ") + "\n"
		}
		if c.want == "" && s != "" || c.want != "" && !strings.HasPrefix(s, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, s, c.want)
		}
	}
}

// TestBugBountyManifest: well_known.security_txt.bug_bounty reaches the
// model, and the schema takes a boolean there and nothing else.
func TestBugBountyManifest(t *testing.T) {
	yes := true
	if m := Model(&Value{Contact: manifest.Lines{"mailto:a@example.org"}, Expires: "180d", BugBounty: &yes}); m.BugBounty == nil || !*m.BugBounty {
		t.Errorf("model %+v", m)
	}
	for _, c := range []struct{ value, want string }{{"false", ""}, {`"yes"`, "bug_bounty"}} {
		src := "version: 1\nsite:\n  url: https://example.org/\nwell_known:\n  security_txt:\n    contact: mailto:a@example.org\n    expires: 180d\n    bug_bounty: " + c.value + "\n"
		_, errs := manifest.LoadSite("m.yaml", []byte(src), "")
		if got := fmt.Sprint(errs); c.want == "" && errs.HasErrors() || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("bug_bounty: %s: %v", c.value, got)
		}
	}
}
