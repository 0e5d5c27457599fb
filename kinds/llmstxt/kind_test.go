package llmstxt

import (
	"reflect"
	"testing"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

func llmsSite(l *Value) *manifest.Site {
	s := &manifest.Site{}
	s.Site.URL = "https://www.example.org/"
	kit.SetValue(s, Kind{}.Key(), l)
	return s
}

// TestKindCheck: each finding at its field relative to llms_txt, a
// heading in the details at its offset there, a repeated section
// pointing at the first.
func TestKindCheck(t *testing.T) {
	details := "About.\n\n## Not a section\n"
	s := llmsSite(&Value{
		Title:   "Example",
		Details: details,
		Sections: []SectionValue{
			{Name: "Docs", Links: []LinkValue{{Title: "A", URL: "/a"}}},
			{Name: "Docs", Links: []LinkValue{{Title: "B", URL: "/../b"}}},
			{Name: "optional"},
		},
	})
	got := Kind{}.Check(s, kit.Build{})
	want := []kit.Finding{
		{Field: "details", Message: `"## Not a section" is a heading: details hold paragraphs and lists only (llmstxt.org), and a heading would start a section of its own; make it a section, or bold text`,
			In: &kit.ValueOffset{Value: details, Offset: 8}},
		{Field: "sections[1].name", Message: `section "Docs" is defined twice: give its links in one section`, First: "sections[0].name"},
		{Field: "sections[1].links[0].url", Message: `"/../b" leaves the site through "..": relative URLs resolve against site.url and must stay inside it; give a path from the root or an absolute URL`},
		{Field: "sections[2].name", Warning: true, Message: `"optional" is not the "Optional" section llmstxt.org gives a meaning to (readers compare it exactly): write "Optional"`},
		{Field: "sections[2]", Warning: true, Message: `section "optional" has no links`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got:\n%+v\nwant:\n%+v", got, want)
	}
}

// TestKindRenderImport: the file renders with its links resolved against
// site.url, and import takes it back to the same value.
func TestKindRenderImport(t *testing.T) {
	l := &Value{Title: "Example", Summary: "A site.", Details: "About it.",
		Sections: []SectionValue{{Name: "Docs", Links: []LinkValue{{Title: "Guide", URL: "/guide", Notes: "start here"}}}}}
	data, ok := Kind{}.Render(llmsSite(l), kit.Build{})
	if !ok {
		t.Fatal("no file")
	}
	want := "# Example\n\n> A site.\n\nAbout it.\n\n## Docs\n\n- [Guide](https://www.example.org/guide): start here\n"
	if string(data) != want {
		t.Errorf("got:\n%s\nwant:\n%s", data, want)
	}
	back := &manifest.Site{}
	if !(Kind{}).Import(back, data, func(line int, format string, args ...any) { t.Errorf("warning: "+format, args...) }) {
		t.Fatal("not imported")
	}
	if got := siteValue(back); got.Sections[0].Links[0].URL != "https://www.example.org/guide" || got.Title != "Example" {
		t.Errorf("imported %+v", got)
	}
	var warned bool
	if (Kind{}).Import(back, []byte("# T\n\n## S\n\n- [x](ftp://a/)\n"), func(int, string, ...any) { warned = true }) || !warned {
		t.Error("an ftp link imported, or without a warning")
	}
}
