package validate_test

import (
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/manifest"
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
	list := validate.Site(doc, validate.Options{Now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)})
	if len(list) != validate.MaxDiagnostics+1 {
		t.Fatalf("%d diagnostics, want %d", len(list), validate.MaxDiagnostics+1)
	}
	if first := list[0]; first.Path != "agents[0].names[0]" {
		t.Errorf("first diagnostic %s, want agents[0].names[0]", first)
	}
	last := list[len(list)-1]
	if want := "2000 more diagnostics not shown"; !strings.Contains(last.Message, want) || last.Line != 0 {
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
	for _, d := range validate.Site(doc, validate.Options{}) {
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
