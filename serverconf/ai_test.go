package serverconf

import (
	"strings"
	"testing"

	"github.com/discgen/discgen/tree"
)

// aiTree is the sample tree with llms.txt and an api-catalog.
// apiCatalogPath is the tree path of the api-catalog.
const apiCatalogPath = ".well-known/api-catalog"

func aiTree() tree.Tree {
	tr := sample()
	tr["llms.txt"] = tree.Entry{Data: []byte("# Fict.org\n")}
	tr[apiCatalogPath] = tree.Entry{Data: []byte("{\n  \"linkset\": []\n}\n")}
	return tr
}

func TestAITypes(t *testing.T) {
	for p, want := range map[string]string{
		"llms.txt":                  "text/markdown; charset=utf-8",
		".well-known/api-catalog":   `application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"`,
		"docs/llms.txt":             "text/plain; charset=utf-8", // only the root file is llms.txt
		".well-known/api-catalog/x": "application/octet-stream",
	} {
		got, err := ContentType(tree.Tree{p: {Data: []byte("x")}}, p)
		if err != nil || got != want {
			t.Errorf("%s: %q %v, want %q", p, got, err, want)
		}
	}
	if l := HomeLinks(aiTree()); len(l) != 1 || l[0] != `</.well-known/api-catalog>; rel="api-catalog"` {
		t.Errorf("HomeLinks = %q", l)
	}
	if l := HomeLinks(sample()); l != nil {
		t.Errorf("HomeLinks without a catalog = %q", l)
	}
}

// TestAIGolden renders every format for the tree with llms.txt and an
// api-catalog.
func TestAIGolden(t *testing.T) {
	public, separate, err := Render(aiTree(), Kinds())
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "ai/_headers", public[HeadersFile].Data)
	golden(t, "ai/htaccess", public[HtaccessFile].Data)
	golden(t, "ai/nginx.conf", separate[NginxFile].Data)
	golden(t, "ai/discgen.caddy", separate[CaddyFile].Data)
	// Without an api-catalog, no format says anything of "/".
	public, separate, err = Render(sample(), Kinds())
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"_headers": public[HeadersFile].Data, ".htaccess": public[HtaccessFile].Data,
		"nginx": separate[NginxFile].Data, "caddy": separate[CaddyFile].Data} {
		if strings.Contains(string(data), "api-catalog") {
			t.Errorf("%s mentions api-catalog without one in the tree", name)
		}
	}
}

func TestQuoted(t *testing.T) {
	if got := quoted(`a "b" \c`); got != `"a \"b\" \\c"` {
		t.Errorf("quoted: %s", got)
	}
}

// TestAICatalogOwnLink: RFC 9727 section 2 says the response to a request
// for /.well-known/api-catalog (HEAD included) carries
// Link: </.well-known/api-catalog>; rel="api-catalog"; every format sends
// it with the catalog's own headers.
func TestAICatalogOwnLink(t *testing.T) {
	public, separate, err := Render(aiTree(), Kinds())
	if err != nil {
		t.Fatal(err)
	}
	link := `</.well-known/api-catalog>; rel="api-catalog"`
	q := quoted(link)
	for name, c := range map[string]struct {
		data        []byte
		start, want string
	}{
		"_headers":  {public[HeadersFile].Data, "\n/.well-known/api-catalog\n", "  Link: " + link + "\n"},
		".htaccess": {public[HtaccessFile].Data, "<If \"%{REQUEST_URI} == '/.well-known/api-catalog'\">\n", "        Header set Link " + q + "\n"},
		"nginx":     {separate[NginxFile].Data, "location = /.well-known/api-catalog {\n", "    add_header Link " + q + ";\n"},
		"caddy":     {separate[CaddyFile].Data, "\tpath /.well-known/api-catalog\n", "\tLink " + q + "\n"},
	} {
		s := string(c.data)
		i := strings.Index(s, c.start)
		if i < 0 {
			t.Errorf("%s: no rule for the api-catalog:\n%s", name, s)
			continue
		}
		block := s[i:]
		if j := strings.Index(block[1:], "\n\n"); j >= 0 {
			block = block[:j+2]
		}
		if !strings.Contains(block, c.want) {
			t.Errorf("%s: the api-catalog's rule lacks %q:\n%s", name, c.want, block)
		}
	}
	if l := FileLinks(aiTree(), apiCatalogPath); len(l) != 1 || l[0] != link {
		t.Errorf("FileLinks = %q", l)
	}
}
