package generate

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/testing/testcorpus"
	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/llmstxt"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/validate"
)

// referenceReading is what the llmstxt.org reference parser reads from a
// file (kinds/llmstxt/testdata/reference/read.py).
type referenceReading struct {
	Title    *string `json:"title"`
	Summary  *string `json:"summary"`
	Sections [][2]json.RawMessage
	Error    string `json:"error"`
}

// readReference runs the llmstxt.org reference parser, from its source,
// on each text. Without python3 the test skips, except in CI ($CI set).
func readReference(t *testing.T, texts []string) []referenceReading {
	t.Helper()
	py := testenv.NeedsTool(t, "python3", "apt-get install python3")
	return readAll[referenceReading](t, exec.Command(py, filepath.Join("..", "kinds", "llmstxt", "testdata", "reference", "read.py")), texts)
}

// readCommonMark reads each text with commonmark.js (npm commonmark 0.31),
// the reference implementation of the CommonMark spec, through
// kinds/llmstxt/testdata/reference/commonmark.js.
func readCommonMark(t *testing.T, texts []string) []referenceReading {
	t.Helper()
	dir := npmPackage(t, "commonmark", "0.31")
	return readAll[referenceReading](t, exec.Command("node", filepath.Join("..", "kinds", "llmstxt", "testdata", "reference", "commonmark.js"), filepath.Join(dir, "dist", "commonmark.js")), texts)
}

// referenceText describes a reading as the manifest's values would be:
// the title, the summary, and each section's name and links (title, URL
// as written, notes).
func (r referenceReading) text(t *testing.T) string {
	if r.Error != "" {
		return "error: " + r.Error
	}
	var b strings.Builder
	str := func(p *string) string {
		if p == nil {
			return "(none)"
		}
		return fmt.Sprintf("%q", *p)
	}
	fmt.Fprintf(&b, "title %s\nsummary %s\n", str(r.Title), str(r.Summary))
	for _, s := range r.Sections {
		var name string
		var links [][3]*string
		if json.Unmarshal(s[0], &name) != nil || json.Unmarshal(s[1], &links) != nil {
			t.Fatalf("read.py: a section reads %s %s", s[0], s[1])
		}
		fmt.Fprintf(&b, "section %q\n", name)
		for _, l := range links {
			fmt.Fprintf(&b, "  link %s %s %s\n", str(l[0]), str(l[1]), str(l[2]))
		}
	}
	return b.String()
}

// manifestText describes a manifest's llms_txt as referenceText does,
// URLs as the file writes them.
func manifestText(l *llmstxt.Value, base *url.URL) string {
	var b strings.Builder
	str := func(s string) string {
		if s == "" {
			return "(none)"
		}
		return fmt.Sprintf("%q", s)
	}
	fmt.Fprintf(&b, "title %s\nsummary %s\n", str(l.Title), str(l.Summary))
	for _, s := range l.Sections {
		fmt.Fprintf(&b, "section %q\n", s.Name)
		for _, k := range s.Links {
			fmt.Fprintf(&b, "  link %s %s %s\n", str(k.Title), str(llmstxt.Destination(resolveURI(base, k.URL))), str(k.Notes))
		}
	}
	return b.String()
}

// llmsManifest returns a manifest whose llms_txt has the title, summary,
// section name, link title and notes given (YAML scalars).
func llmsManifest(f []string) []byte {
	return fmt.Appendf(nil, "version: 1\nsite: {url: \"https://example.org/\"}\nllms_txt:\n  title: %s\n  summary: %s\n  details: Details.\n  sections:\n    - name: %s\n      links: [{title: %s, url: /a.md, notes: %s}]\n", f[0], f[1], f[2], f[3], f[4])
}

// TestReferenceParserReadsBack: for every manifest of the repository with
// an llms_txt (the examples and the validation vectors), every value of
// the markdown fuzz corpus and the hostile values of the llmstxt tests
// placed in each one-line field, and the cases of the issue, the
// llmstxt.org reference parser (AnswerDotAI/llms-txt, run from its source)
// reads the H1, summary, sections, titles, URLs and notes the manifest
// holds, or the manifest is refused at the value that cannot be so
// written.
func TestReferenceParserReadsBack(t *testing.T) {
	var srcs [][]byte
	for _, m := range testcorpus.Manifests(t, "..", 10) {
		if strings.Contains(string(m), "llms_txt:") {
			srcs = append(srcs, m)
		}
	}
	corpus := len(srcs)
	values := []string{
		// FuzzRender's seeds and TestInlineCannotOpenStructure's values.
		"# x", "[a](b)", "\\", "`x`", "<b>", "&amp;", "a ## b #", "](x) [", "- y", "> q",
		"# heading", "## Optional", "x ## y #", "](https://evil.example/) [", "[a](https://evil.example/)",
		"![img](https://evil.example/x.png)", "<script>alert(1)</script>", "<https://evil.example/>",
		"*em* _em_ `code` ~~del~~", "&lt;b&gt; &#35;", "a | b | c", "\\[escaped\\]", "- item", "> quote", "1. item",
		// The issue's: a "]", a title shaped like a link, what needs no escape.
		"a ] b", "[x](https://evil.example)", "a_b & c!", "snake_case_name", "C:\\Users", "50% * 2", "a < b", "x ~ y",
	}
	named := len(values)
	// Random values over markdown's characters, as FuzzRender draws them.
	r := rand.New(rand.NewPCG(20261127, 0x6c6c6d73))
	const alphabet = "ab _*`[]<>#&~|!\\-:;().=+1"
	for range 2000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		values = append(values, b.String())
	}
	// Each value in each one-line field, the others plain.
	for i, v := range values {
		q, _ := json.Marshal(v)
		fields := []string{"T", "S", "Docs", "A", "n"}
		fields[i%len(fields)] = string(q)
		if i < named { // the named values in every field
			for f := range fields {
				fs := []string{"T", "S", "Docs", "A", "n"}
				fs[f] = string(q)
				srcs = append(srcs, llmsManifest(fs))
			}
			continue
		}
		srcs = append(srcs, llmsManifest(fields))
	}
	// A summary with nothing after it, and details that start as a quote.
	srcs = append(srcs, []byte("version: 1\nsite: {url: \"https://example.org/\"}\nllms_txt:\n  title: T\n  summary: S\n  sections: [{name: Docs, links: [{title: A, url: /a.md}]}]\n"),
		[]byte("version: 1\nsite: {url: \"https://example.org/\"}\nllms_txt:\n  title: T\n  details: \"> not a summary\"\n"),
		[]byte("version: 1\nsite: {url: \"https://example.org/\"}\nllms_txt:\n  title: T\n  summary: S\n  details: \"```\\n## not a section\\n```\\n\"\n"))
	var texts, wants []string
	refused, built, builtCorpus := 0, 0, 0
	for i, src := range srcs {
		doc, errs := manifest.LoadSite("site.yaml", src, "")
		if doc == nil || errs.HasErrors() {
			continue
		}
		_, verrs := validate.Site(doc, validate.Options{Now: now})
		l := kit.Value[llmstxt.Value](doc.Value, llmstxt.Kind{}.Key())
		if l == nil {
			continue
		}
		if verrs.HasErrors() {
			if i >= corpus && !slices.ContainsFunc(verrs.Errors(), func(d diag.Diagnostic) bool { return strings.HasPrefix(d.Path, "llms_txt") }) {
				t.Errorf("refused, but not at llms_txt: %v\n%s", verrs, src)
			}
			refused++
			continue
		}
		base, err := url.Parse(doc.Value.Site.URL)
		if err != nil {
			t.Fatal(err)
		}
		data, ok := llmstxt.Kind{}.Render(doc.Value, kit.Build{})
		if !ok {
			t.Fatal("no llms.txt")
		}
		built++
		if i < corpus {
			builtCorpus++
		}
		texts = append(texts, string(data))
		wants = append(wants, manifestText(l, base))
	}
	for i, r := range readReference(t, texts) {
		if got := r.text(t); got != wants[i] {
			t.Errorf("the reference parser reads\n%s\nthe manifest holds\n%s\nllms.txt:\n%s", got, wants[i], texts[i])
		}
	}
	t.Run("CommonMark", func(t *testing.T) {
		for i, r := range readCommonMark(t, texts) {
			if got := r.text(t); got != wants[i] {
				t.Errorf("commonmark.js reads\n%s\nthe manifest holds\n%s\nllms.txt:\n%s", got, wants[i], texts[i])
			}
		}
	})
	if built == 0 || refused == 0 {
		t.Fatalf("%d files read, %d manifests refused: the cases test nothing", built, refused)
	}
	t.Logf("%d llms.txt files read back by the reference parser as their manifests hold them (%d of the repository's %d manifests with llms_txt); %d manifests refused at a value it could not read as given", built, builtCorpus, corpus, refused)
}
