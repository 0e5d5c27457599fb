package validate_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/validate"
)

// TestDiagnosticsBounded: a manifest of thousands of bad values gets
// MaxDiagnostics of them, in position order, and one more that counts
// the rest.
func TestDiagnosticsBounded(t *testing.T) {
	src := "version: 1\nsite: {url: \"https://example.org/\"}\nagents:\n  - names: [" +
		strings.Repeat("\"a b\", ", 3*validate.MaxDiagnostics) + "]\n"
	doc, errs := manifest.LoadSite("m.yaml", []byte(src), "")
	if doc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	list := checkSite(doc, validate.Options{Now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)})
	if len(list) != validate.MaxDiagnostics+1 {
		t.Fatalf("%d diagnostics, want %d", len(list), validate.MaxDiagnostics+1)
	}
	if first := list[0]; first.Path != "agents[0].names[0]" {
		t.Errorf("first diagnostic %s, want agents[0].names[0]", first)
	}
	last := list[len(list)-1]
	if want := "2000 more errors not shown"; !strings.Contains(last.Message, want) || last.Line != 0 || last.Severity != diag.Error {
		t.Errorf("last diagnostic %s, want a file-level one saying %q", last, want)
	}
}

// TestEnvironmentsCheckOnlyWhatTheyReplace: an environment's values are
// checked where they apply and reported under its name; what it does not
// replace is reported once, and a check that reads another key (data_txt
// reads datasets) still sees it.
func TestEnvironmentsCheckOnlyWhatTheyReplace(t *testing.T) {
	src := `version: 1
site: {url: "https://example.org/"}
agents: [{names: ["bad name"], disallow: [/]}]
environments:
  staging:
    icons: ["rel png"]
  data:
    data_txt: {disallow: ["no-slash"]}
  both:
    datasets: [{path: /d.csv}]
    data_txt: {disallow: [/private/]}
`
	doc, errs := manifest.LoadSite("m.yaml", []byte(src), "")
	if doc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	var got []string
	for _, d := range checkSite(doc, validate.Options{}) {
		got = append(got, d.Severity.String()+" "+d.Path)
	}
	want := []string{
		"error agents[0].names[0]",
		"error environments.staging.icons[0]",
		"warning environments.data.data_txt",
		"error environments.data.data_txt.disallow[0]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// letters writes i in base 26, in letters: distinct product tokens.
func letters(i int) string {
	s := ""
	for i++; i > 0; i /= 26 {
		i--
		s = string(rune('a'+i%26)) + s
	}
	return s
}

// TestAgentNamesBounded: a manifest names at most MaxAgentNames agents
// (names entries and the agents presets add), and its robots.txt holds at
// most MaxRuleLines rule lines; each is an error at the value that passes
// it, once, and the policy's other checks are not run. Checking every
// pair of 40,000 names took 97 s.
func TestAgentNamesBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\nsite: {url: \"https://example.org/\"}\nagents:\n  - names: [")
	for i := range 40_000 {
		b.WriteString(letters(i) + ",")
	}
	b.WriteString("]\n    disallow: [/]\n  - {presets: [ai-training], disallow: [/]}\n")
	doc, errs := manifest.LoadSite("m.yaml", []byte(b.String()), "")
	if doc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	start := time.Now()
	list := checkSite(doc, validate.Options{})
	t.Logf("%v", time.Since(start))
	if len(list.Errors()) != 1 {
		t.Fatalf("%d errors, want 1: %v", len(list.Errors()), list.Errors())
	}
	e := list.Errors()[0]
	col := len("  - names: [") + 1 // then each name before it, and its comma
	for i := range validate.MaxAgentNames {
		col += len(letters(i)) + 1
	}
	if e.Path != fmt.Sprintf("agents[0].names[%d]", validate.MaxAgentNames) || e.Line != 4 || e.Col != col ||
		!strings.Contains(e.Message, "more than 5000 agent names in this manifest; the limit is 5000") {
		t.Errorf("error %s, want one at agents[0].names[%d] (4:%d)", e, validate.MaxAgentNames, col)
	}

	// Rule lines: 100 agents times 2,001 rules.
	b.Reset()
	b.WriteString("version: 1\nsite: {url: \"https://example.org/\"}\nagents:\n  - {names: [x], disallow: [/]}\n  - names: [")
	for i := range 100 {
		b.WriteString(letters(i) + "q,")
	}
	b.WriteString("]\n    disallow: [")
	for i := range validate.MaxRuleLines/100 + 1 {
		b.WriteString("/" + letters(i) + ",")
	}
	b.WriteString("]\n")
	doc, errs = manifest.LoadSite("m.yaml", []byte(b.String()), "")
	if doc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	list = checkSite(doc, validate.Options{})
	if errs := list.Errors(); len(errs) != 1 || errs[0].Path != "agents[1]" || errs[0].Line != 5 ||
		!strings.Contains(errs[0].Message, "robots.txt would hold more than 200000 rule lines") {
		t.Errorf("errors %v, want one at agents[1] (line 5) about rule lines", errs)
	}
}

// TestErrorsBeforeWarnings: warnings that fill MaxDiagnostics never push
// an error out (a tenant refused with no reason shown), and warnings
// alone, however many, do not make an error.
func TestErrorsBeforeWarnings(t *testing.T) {
	// 1,100 agent names Google reads by their letters only (a warning
	// each), then one rule without a leading "/" (an error).
	var names []string
	for i := range 1100 {
		names = append(names, fmt.Sprintf("b%d", i))
	}
	agents := "agents:\n  - names: [" + strings.Join(names, ", ") + "]\n    disallow: [/]\n"
	bad := "  - names: [zbot]\n    disallow: [no-slash]\n"
	now := validate.Options{Now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	within, err := pathspace.Parse(pathspace.Root(), "/~alice/")
	if err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, src string, tenant bool) diag.List {
		t.Helper()
		if tenant {
			doc, errs := manifest.LoadTenant("tenant.yaml", []byte(src))
			if doc == nil || errs.HasErrors() {
				t.Fatalf("load: %v", errs)
			}
			_, list := validate.Tenant(doc, within, validate.AllFiles(), now)
			return list
		}
		doc, errs := manifest.LoadSite("site.yaml", []byte(src), "")
		if doc == nil || errs.HasErrors() {
			t.Fatalf("load: %v", errs)
		}
		return checkSite(doc, now)
	}
	for _, tenant := range []bool{false, true} {
		head := "version: 1\nsite: {url: \"https://example.org/\"}\n"
		if tenant {
			head = "version: 1\npath: /~alice/\n"
		}
		t.Run(fmt.Sprint("tenant=", tenant), func(t *testing.T) {
			list := check(t, head+agents+bad, tenant)
			errs := list.Errors()
			if len(errs) != 1 || errs[0].Path != "agents[1].disallow[0]" {
				t.Errorf("errors %v, want the one of agents[1].disallow[0]", errs)
			}
			if len(list) != validate.MaxDiagnostics+1 {
				t.Errorf("%d diagnostics, want %d", len(list), validate.MaxDiagnostics+1)
			}
			last := list[len(list)-1]
			if want := "101 more warnings not shown"; !strings.Contains(last.Message, want) || last.Severity != diag.Warning {
				t.Errorf("last diagnostic %s (%s), want a warning saying %q", last, last.Severity, want)
			}
			// Without the error, the warnings refuse nothing.
			list = check(t, head+agents, tenant)
			if list.HasErrors() {
				t.Errorf("warnings alone made errors: %v", list.Errors())
			}
		})
	}
}
