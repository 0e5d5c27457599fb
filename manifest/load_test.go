package manifest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
)

const head = "version: 1\nsite: {url: \"https://example.org/\"}\n"

func load(t *testing.T, src string) *manifest.Doc[manifest.Site] {
	t.Helper()
	doc, errs := manifest.LoadSite("m.yaml", []byte(src), "")
	if errs.HasErrors() || doc == nil {
		t.Fatalf("LoadSite: %v", errs)
	}
	return doc
}

func pos(line, col int) diag.Pos { return diag.Pos{File: "m.yaml", Line: line, Col: col} }

func TestPositions(t *testing.T) {
	doc := load(t, head+`agents:
  - names: [a, "b"]
    disallow:
      - /x
files:
  x-a.txt: hello
`)
	for _, tc := range []struct {
		path string
		key  bool
		want diag.Pos
	}{
		{"agents", false, pos(4, 3)},
		{"agents", true, pos(3, 1)},
		{"agents[0]", false, pos(4, 5)},
		{"agents[0].names", true, pos(4, 5)},
		{"agents[0].names", false, pos(4, 12)},
		{"agents[0].names[1]", false, pos(4, 16)},
		{"agents[0].disallow[0]", false, pos(6, 9)},
		{`files["x-a.txt"]`, true, pos(8, 3)},
		{`files["x-a.txt"]`, false, pos(8, 12)},
		// A path with no value falls back to its nearest ancestor.
		{"agents[0].allow[3]", false, pos(4, 5)},
		{"icons", false, pos(1, 1)},
		{"site.url", false, pos(2, 13)},
	} {
		got := doc.Pos.Of(tc.path)
		if tc.key {
			got = doc.Pos.KeyOf(tc.path)
		}
		if got != tc.want {
			t.Errorf("position of %s (key %v) = %v, want %v", tc.path, tc.key, got, tc.want)
		}
	}
}

// An alias stands where it is written; what it expands to keeps the
// positions of the anchored text, under the path of each use.
func TestAliasPositions(t *testing.T) {
	doc := load(t, head+`agents:
  - &a
    names: [bot]
    disallow: &d [/x, /y]
  - *a
  - names: [other]
    disallow: *d
`)
	for path, want := range map[string]diag.Pos{
		"agents[0]":             pos(4, 5),
		"agents[0].names[0]":    pos(5, 13),
		"agents[1]":             pos(7, 5),
		"agents[1].names[0]":    pos(5, 13),
		"agents[1].disallow[1]": pos(6, 23),
		"agents[2].disallow":    pos(9, 15),
		"agents[2].disallow[0]": pos(6, 19),
	} {
		if got := doc.Pos.Of(path); got != want {
			t.Errorf("position of %s = %v, want %v", path, got, want)
		}
	}
	if got := doc.Value.Agents[1].Names; len(got) != 1 || got[0] != "bot" {
		t.Errorf("agents[1].names = %q, want [bot]", got)
	}
}

func TestMergeKeys(t *testing.T) {
	doc := load(t, head+`agents:
  - &a {names: [bot], disallow: [/x]}
  - <<: *a
    names: [other]
  - <<: [{allow: [/m]}, *a]
    names: [third]
`)
	ag := doc.Value.Agents
	if len(ag) != 3 {
		t.Fatalf("%d agents, want 3", len(ag))
	}
	if fmt.Sprint(ag[1].Names, ag[1].Disallow) != "[other] [/x]" {
		t.Errorf("agents[1] = %v %v, want a merged disallow and its own names", ag[1].Names, ag[1].Disallow)
	}
	if fmt.Sprint(ag[2].Names, ag[2].Allow, ag[2].Disallow) != "[third] [/m] [/x]" {
		t.Errorf("agents[2] = %v %v %v, want both merges and its own names", ag[2].Names, ag[2].Allow, ag[2].Disallow)
	}
	if got := doc.Pos.Of("agents[1].disallow[0]"); got != pos(4, 34) {
		t.Errorf("merged value at %v, want the anchored text at 4:34", got)
	}
	if got := doc.Pos.Of("agents[1].names[0]"); got != pos(6, 13) {
		t.Errorf("own value at %v, want 6:13", got)
	}
	if got := doc.Pos.KeyOf("agents[1].names"); got != pos(6, 5) {
		t.Errorf("own key at %v, want 6:5", got)
	}
	if got := doc.Pos.KeyOf("agents[1].disallow"); got != pos(4, 23) {
		t.Errorf("merged key at %v, want the anchored text at 4:23", got)
	}
}

// errorsOf loads src and returns its diagnostics, one per line.
func errorsOf(src string) string {
	_, errs := manifest.LoadSite("m.yaml", []byte(src), "")
	errs.Sort()
	var b strings.Builder
	for _, d := range errs {
		fmt.Fprintln(&b, d)
	}
	return b.String()
}

func TestLoadRefuses(t *testing.T) {
	big := head + "x: \"" + strings.Repeat("a", manifest.MaxBytes) + "\"\n"
	deep := head + "agents: " + strings.Repeat("[", manifest.MaxDepth+2) + strings.Repeat("]", manifest.MaxDepth+2) + "\n"
	for _, tc := range []struct{ name, src, want string }{
		{"empty", "", "m.yaml:1:1: manifest is empty; it needs at least \"version: 1\" and a site with its url\n"},
		{"comments only", "# nothing\n\n", "m.yaml:1:1: manifest is empty; it needs at least \"version: 1\" and a site with its url\n"},
		{"empty document", "---\n", "m.yaml:1:1: manifest is empty; it needs at least \"version: 1\" and a site with its url\n"},
		{"null document", "--- ~\n", "m.yaml:1:1: manifest is empty; it needs at least \"version: 1\" and a site with its url\n"},
		{"list", "- version: 1\n", "m.yaml:1:1: manifest must be a mapping of keys to values\n"},
		{"scalar", "\n\nhello\n", "m.yaml:3:1: manifest must be a mapping of keys to values\n"},
		{"two documents", head + "---\nversion: 1\n", "m.yaml:3:1: a manifest holds one YAML document; found a second one\n"},
		{"second document invalid", head + "---\n[\n", "m.yaml:4:1: invalid YAML: did not find expected node content; the document ends before this list is closed\n"},
		{"too large", big, fmt.Sprintf("m.yaml: manifest is %d bytes; the limit is %d\n", len(big), manifest.MaxBytes)},
		{"too deep", deep, "m.yaml:3:73: agents[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]: nested more than 64 levels deep\n"},
		{"duplicate key", head + "icons: []\nicons: []\n", "m.yaml:4:1: icons: duplicate key \"icons\" (first at line 3)\n"},
		{"merge into itself", head + "agents:\n  - &base\n    <<: *base\n", "m.yaml:5:9: agents[0]: a merge key (<<) refers to a mapping that holds it\n"},
		{"merge of a holder", head + "a: &a\n  b:\n    - <<: *a\n", "m.yaml:5:11: a.b[0]: a merge key (<<) refers to a mapping that holds it\n"},
		{"merge list holding itself", head + "a: &a\n  <<: [{x: 1}, *a]\n", "m.yaml:4:7: a: a merge key (<<) refers to a mapping that holds it\n"},
		{"alias cycle", head + "a: &a [*a, *a]\n", "m.yaml:3:4: a" + strings.Repeat("[0]", manifest.MaxDepth/2) + ": nested more than 64 levels deep\n"},
		{"merge of a list", head + "site2: &s [a]\nagents:\n  - <<: *s\n    names: [a]\n",
			"m.yaml:3:1: site2: unknown key \"site2\" (did you mean \"site\"?)\nm.yaml:5:9: agents[0]: a merge key (<<) must refer to a mapping\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := errorsOf(tc.src); got != tc.want {
				t.Errorf("got\n%swant\n%s", got, tc.want)
			}
		})
	}
}

// A document exactly at the limit is read.
func TestMaxBytesInclusive(t *testing.T) {
	src := head + "# "
	src += strings.Repeat("a", manifest.MaxBytes-len(src)-1) + "\n"
	if len(src) != manifest.MaxBytes {
		t.Fatalf("built %d bytes", len(src))
	}
	load(t, src)
}

func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString(head + "a: &a [x, x, x, x, x, x, x, x, x, x]\n")
	for c := 'b'; c <= 'j'; c++ {
		fmt.Fprintf(&b, "%c: &%c [%s]\n", c, c, strings.Repeat(fmt.Sprintf("*%c, ", c-1), 9)+fmt.Sprintf("*%c", c-1))
	}
	doc, errs := manifest.LoadSite("m.yaml", []byte(b.String()), "")
	if doc != nil {
		t.Fatal("an alias bomb was loaded")
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Message, fmt.Sprintf("more than %d YAML nodes", manifest.MaxNodes)) || errs[0].Line == 0 {
		t.Fatalf("got %v, want one positioned error naming the node limit", errs)
	}
}

func TestEnvironment(t *testing.T) {
	src := head + `agents: [{names: [a]}]
environments:
  staging:
    agents: [{names: [b]}]
    icons: [/i.png]
`
	doc, errs := manifest.LoadSite("m.yaml", []byte(src), "staging")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	if doc.Env != "staging" || doc.Value.Agents[0].Names[0] != "b" || len(doc.Value.Icons) != 1 {
		t.Errorf("environment not applied: %+v", doc.Value)
	}
	if got := doc.Pos.Of("agents[0].names[0]"); got != pos(6, 23) {
		t.Errorf("agents[0].names[0] at %v, want the environment's 6:23", got)
	}
	if got := errorsOf(src + "zz: 1\n"); !strings.Contains(got, `unknown key "zz"`) {
		t.Errorf("got %q", got)
	}
	_, errs = manifest.LoadSite("m.yaml", []byte(src), "prod")
	if want := `m.yaml:4:1: environments: environment "prod" is not defined; the manifest defines staging`; len(errs) != 1 || errs[0].String() != want {
		t.Errorf("got %v, want %s", errs, want)
	}
}

func TestTenant(t *testing.T) {
	doc, errs := manifest.LoadTenant("t.yaml", []byte("version: 1\npath: /~alice/\ndescription: hi\nfeeds: [{url: f.atom}]\n"))
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	if doc.Value.Path != "/~alice/" || doc.Value.Description != "hi" || doc.Value.Feeds[0].URL != "f.atom" {
		t.Errorf("got %+v", doc.Value)
	}
	_, errs = manifest.LoadTenant("t.yaml", []byte("version: 1\npath: /~alice/\nsite: {url: x}\n"))
	if want := `t.yaml:3:1: site: unknown key "site"`; len(errs) != 1 || errs[0].String() != want {
		t.Errorf("got %v, want %s", errs, want)
	}
}

// Values keep their text: a date stays the string it was written as, and
// numbers and booleans are typed as YAML reads them.
func TestScalars(t *testing.T) {
	doc := load(t, head+`well_known:
  security_txt:
    contact: mailto:a@example.org
    expires: 2027-06-01
agents:
  - names: ["*"]
    crawl_delay: 0x10
  - names: [b]
    crawl_delay: 1.50
`)
	if got := manifest.KindValue[struct {
		Expires string `json:"expires"`
	}](doc.Value, "well_known.security_txt").Expires; got != "2027-06-01" {
		t.Errorf("expires = %q", got)
	}
	if got := doc.Value.Agents[0].CrawlDelay.String(); got != "16" {
		t.Errorf("crawl_delay = %s, want 16", got)
	}
	if got := doc.Value.Agents[1].CrawlDelay.String(); got != "1.5" {
		t.Errorf("crawl_delay = %s, want 1.5", got)
	}
	if got := errorsOf(head + "agents: [{names: [true]}]\n"); got != "m.yaml:3:19: agents[0].names[0]: must be a string, not a boolean\n" {
		t.Errorf("got %q", got)
	}
}

// A manifest that expands to exactly MaxNodes values loads; one more is
// refused, by the count made before expanding as by the one made while
// expanding.
func TestNodeLimitBoundary(t *testing.T) {
	// The root, version, site and site.url are 4 values; "a" holds a
	// list of n scalars (1+n); "b" and "c" repeat it by alias, each
	// costing one for the alias, one for the list and n; "d" holds a list
	// of m scalars (1+m): 10+3n+m in all.
	build := func(extra int) string {
		n := 80000
		m := manifest.MaxNodes - 10 - 3*n + extra
		return "version: 1\nsite: {url: \"https://example.org/\"}\n" +
			"a: &a [" + strings.Repeat("x, ", n-1) + "x]\nb: *a\nc: *a\nd: [" + strings.Repeat("y, ", m-1) + "y]\n"
	}
	for _, tc := range []struct {
		extra   int
		refused bool
	}{{0, false}, {1, true}} {
		_, errs := manifest.LoadSite("m.yaml", []byte(build(tc.extra)), "")
		refused := strings.Contains(fmt.Sprint(errs), "YAML nodes")
		if refused != tc.refused {
			t.Errorf("extra %d: refused %v, want %v: %v", tc.extra, refused, tc.refused, errs)
		}
	}
}

// WithEnv applies an environment to a copy: the document it is called on
// keeps its own values and positions.
func TestWithEnv(t *testing.T) {
	src := head + `agents: [{names: [a]}]
environments:
  staging:
    agents: [{names: [b]}]
  prod:
    icons: [/p.png]
`
	doc := load(t, src)
	if got := doc.Environments(); fmt.Sprint(got) != "[prod staging]" {
		t.Errorf("Environments() = %v", got)
	}
	st, errs := doc.WithEnv("staging")
	if errs.HasErrors() || st.Env != "staging" || st.Value.Agents[0].Names[0] != "b" {
		t.Fatalf("staging: %v %+v", errs, st)
	}
	pr, errs := st.WithEnv("prod")
	if errs.HasErrors() || pr.Value.Agents[0].Names[0] != "a" || len(pr.Value.Icons) != 1 {
		t.Errorf("prod applied over staging, or not at all: %v %+v", errs, pr.Value)
	}
	if doc.Env != "" || doc.Value.Agents[0].Names[0] != "a" || len(doc.Value.Icons) != 0 || doc.Pos.Of("agents[0].names[0]") != pos(3, 19) {
		t.Errorf("WithEnv changed the document it was called on: %+v", doc.Value)
	}
	if _, errs := doc.WithEnv("dev"); len(errs) != 1 || !strings.Contains(errs[0].Message, `"dev" is not defined; the manifest defines prod, staging`) {
		t.Errorf("got %v", errs)
	}
}
