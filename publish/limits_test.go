//go:build unix

package publish

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestInvisibleDirectoryNames: bidirectional and zero-width characters in
// a directory name that fills a delegation's '*' are refused, as they are
// in delegations[].path: /~alice‮/ would display as another space.
func TestInvisibleDirectoryNames(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                                   isolationSite,
		"users/alice/public_html/autodisc.yaml":       tenantYAML("/~alice/"),
		"users/al\u202eice/public_html/autodisc.yaml": "version: 1\ndescription: bidi\n",
		"users/al\u200bice/public_html/autodisc.yaml": "version: 1\ndescription: zero width\n",
		"users/bo\u2066b/public_html/autodisc.yaml":   "version: 1\ndescription: isolate\n",
	})
	o := publishAt(t, dir, nil)
	o.wantOnly(t, []string{"users/alice/public_html"}, map[string]string{
		"users/al\u202eice/public_html": "contains the bidirectional control U+202E",
		"users/al\u200bice/public_html": "contains the invisible character U+200B",
		"users/bo\u2066b/public_html":   "contains the bidirectional control U+2066",
	})
	if exists(filepath.Join(dir, "users/al\u202eice/public_html/autodisc")) {
		t.Errorf("a refused tenant was written")
	}
}

// xFiles is a tenant manifest of n x- files of one line each.
func xFiles(n int, line string) string {
	var b strings.Builder
	b.WriteString("version: 1\nfiles:\n")
	for i := range n {
		fmt.Fprintf(&b, "  x-%d: %s\n", i, line)
	}
	return b.String()
}

// TestTenantFileLimit: a tenant writes at most DefaultTenantFiles files,
// refused with an error at the x- file that passes the limit; the site
// raises the limit for a delegation with limits.files.
func TestTenantFileLimit(t *testing.T) {
	n := DefaultTenantFiles + 500
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                             isolationSiteAll,
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
		"users/many/public_html/autodisc.yaml":  xFiles(n, "a"),
	})
	o := publishAt(t, dir, nil)
	o.wantOnly(t, []string{"users/alice/public_html"}, map[string]string{
		"users/many/public_html": fmt.Sprintf("this tenant would write at least %d files; a tenant of this delegation writes at most %d (delegations[0].limits.files in %s raises it)",
			n+1, DefaultTenantFiles, filepath.Join(dir, "site.yaml")),
	})
	// index.txt is the one file besides the x- files: the limit is
	// passed at the x- file numbered DefaultTenantFiles-1, on its line.
	d := o.diags["users/many/public_html"]
	want := fmt.Sprintf("x-%d", DefaultTenantFiles-1)
	if len(d) != 1 || d[0].Path != `files["`+want+`"]` || d[0].Line != 3+DefaultTenantFiles-1 {
		t.Errorf("the error is not at %s (line %d): %v", want, 3+DefaultTenantFiles-1, d)
	}
	if exists(filepath.Join(dir, "users/many/public_html/autodisc")) {
		t.Errorf("a refused tenant was written")
	}
	// Raised for the delegation, the tenant is built.
	writeFiles(t, dir, map[string]string{"site.yaml": isolationSiteAll + fmt.Sprintf("    limits: {files: %d}\n", n+1)})
	o = publishAt(t, dir, nil)
	o.wantOnly(t, []string{"users/many/public_html"}, nil) // alice is unchanged
	ents, err := os.ReadDir(filepath.Join(dir, "users/many/public_html/autodisc"))
	if err != nil || len(ents) != n+1 {
		t.Errorf("%d files written (%v), want %d", len(ents), err, n+1)
	}
}

// TestTenantByteLimit: the bytes a tenant writes are bounded as well,
// with the error at the x- file that passes the limit.
func TestTenantByteLimit(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                             isolationSiteAll + "    limits: {bytes: 2000}\n",
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
		"users/big/public_html/autodisc.yaml":   xFiles(30, strings.Repeat("b", 99)),
	})
	o := publishAt(t, dir, nil)
	o.wantOnly(t, []string{"users/alice/public_html"}, map[string]string{
		"users/big/public_html": "a tenant of this delegation writes at most 2000 (delegations[0].limits.bytes in",
	})
	// index.txt holds 30 lines of 6 or 7 bytes (x-0 to x-29 and a line
	// break: 200 bytes); each x- file is 100 bytes: the 19th passes 2000.
	if d := o.diags["users/big/public_html"]; len(d) != 1 || d[0].Path != `files["x-18"]` {
		t.Errorf("the error is not at x-18: %v", d)
	}
}

// TestLimitsNeedTenants: limits on a delegation without tenants is an
// error at its key.
func TestLimitsNeedTenants(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml": "version: 1\nsite: {url: \"https://isp.example/\"}\ndelegations:\n  - path: /p/\n    inline: {description: x}\n    limits: {files: 10}\n",
	})
	o := publishAt(t, dir, nil)
	if o.site == nil || !strings.Contains(fmt.Sprint(o.site.Diags), "6:5: delegations[0].limits: limits bounds what the tenants of a delegation write") {
		t.Errorf("site diagnostics: %v", o.site)
	}
}

// isolationSiteAll delegates every file to the tenants of users/*.
const isolationSiteAll = `version: 1
site:
  url: https://isp.example/
delegations:
  - path: "~*"
    tenants: "users/*/public_html/autodisc.yaml"
`

// TestRefusedVerdictKept: a tenant refused for what its manifest says is
// refused again by the next builds, with the same reasons and a failed
// build, without its manifest being read; until the manifest changes.
func TestRefusedVerdictKept(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                             isolationSiteAll,
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
		"users/bad/public_html/autodisc.yaml":   "version: 1\nagents:\n  - names: [\"a b\"]\n",
	})
	var mu sync.Mutex
	read := map[string]int{}
	h := &hooks{read: func(d string) {
		mu.Lock()
		defer mu.Unlock()
		read[filepath.Base(filepath.Dir(d))]++
	}}
	reasons := ""
	for i := range 3 {
		o := publishAt(t, dir, hooked(h, nil))
		if o.status["users/bad/public_html"] != Refused || !o.sum.Failed {
			t.Fatalf("build %d: bad is %s, failed %v", i, o.status["users/bad/public_html"], o.sum.Failed)
		}
		r := o.reasons("users/bad/public_html")
		if i == 0 {
			reasons = r
			if !strings.Contains(r, "is not a product token") {
				t.Fatalf("reasons %q", r)
			}
		} else if r != reasons {
			t.Errorf("build %d: reasons %q, want %q", i, r, reasons)
		}
		if d := o.diags["users/bad/public_html"]; len(d) == 0 || d[0].Line != 3 || d[0].Path != "agents[0].names[0]" {
			t.Errorf("build %d: not at its position: %v", i, d)
		}
	}
	if read["bad"] != 1 || read["alice"] != 1 {
		t.Errorf("manifests read %v times, want bad and alice once each", read)
	}
	verdicts := func() []string {
		// In the build's own state directory, where no tenant can
		// write, not in the tenant's own (output.RootStateDir).
		m, _ := filepath.Glob(filepath.Join(dir, ".state", "refused", "*", "*", "*.stat"))
		return m
	}
	if v := verdicts(); len(v) != 1 {
		t.Errorf("verdicts kept: %v, want one", v)
	}
	// Checking reads the kept verdict, and keeps none of its own.
	o := publishAt(t, dir, hooked(h, func(o *Options) { o.Mode = Check }))
	if o.status["users/bad/public_html"] != Refused || read["bad"] != 1 {
		t.Errorf("--check: bad is %s, read %d times", o.status["users/bad/public_html"], read["bad"])
	}
	// A fixed manifest is read again and built, and its verdict dropped.
	writeFiles(t, dir, map[string]string{"users/bad/public_html/autodisc.yaml": "version: 1\nagents:\n  - names: [ab]\n"})
	o = publishAt(t, dir, hooked(h, nil))
	o.wantOnly(t, []string{"users/bad/public_html"}, nil)
	if read["bad"] != 2 {
		t.Errorf("the fixed manifest was read %d times in all, want 2", read["bad"])
	}
	if v := verdicts(); len(v) != 0 {
		t.Errorf("verdicts left: %v", v)
	}
}
