package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/discgen/discgen/sitebuild"
)

// TestBuildUsage builds the example with --env open: every cell where the
// agent may fetch shows the preferences it reads, with their lines, in the
// matrix and on the page.
func TestBuildUsage(t *testing.T) {
	res, diags := sitebuild.Build(sitebuild.Options{Manifest: "../examples/site.yaml", Env: "open", Now: now})
	if res == nil {
		t.Fatal(diags)
	}
	p := Build(Input{Manifest: "examples/site.yaml", Site: res.Doc.Value, Tree: res.Tree, Diags: diags})
	var b bytes.Buffer
	if err := Render(&b, p); err != nil {
		t.Fatal(err)
	}
	cells := 0
	for _, r := range p.Rows {
		for _, c := range r.Cells {
			cells++
			if !c.Allowed || !strings.HasPrefix(c.Usage, "train_ai=no") || !strings.Contains(c.Usage, "(lines ") {
				t.Errorf("%s %s: allowed %v, usage %q", c.Agent, c.Path, c.Allowed, c.Usage)
			}
		}
	}
	if cells == 0 {
		t.Fatal("no cells")
	}
	if !strings.Contains(b.String(), `<span class="usage">usage: train_ai=no`) {
		t.Error("the page shows no usage")
	}

	// Without preference lines, no cell shows any.
	p, _ = examplePage(t)
	for _, r := range p.Rows {
		for _, c := range r.Cells {
			if c.Usage != "" {
				t.Errorf("%s %s: usage %q without preference lines", c.Agent, c.Path, c.Usage)
			}
		}
	}
}
