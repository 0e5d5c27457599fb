package apicatalog

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

func TestRenderLinkset(t *testing.T) {
	got := string(RenderLinkset([]LinkContext{{
		Anchor: "https://www.example.org/api/v1/",
		Links: map[string][]LinkTarget{
			"status":       {{Href: "https://www.example.org/api/v1/health"}},
			"service-desc": {{Href: "https://www.example.org/api/v1/openapi.json", Type: "application/vnd.oai.openapi+json", Title: "A <b> & \"c\"\n"}},
		},
	}}))
	want := `{
  "linkset": [
    {
      "anchor": "https://www.example.org/api/v1/",
      "service-desc": [
        {
          "href": "https://www.example.org/api/v1/openapi.json",
          "type": "application/vnd.oai.openapi+json",
          "title": "A <b> & \"c\"\n"
        }
      ],
      "status": [
        {
          "href": "https://www.example.org/api/v1/health"
        }
      ]
    }
  ]
}
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	var v struct {
		Linkset []map[string]json.RawMessage `json:"linkset"`
	}
	if err := json.Unmarshal([]byte(got), &v); err != nil || len(v.Linkset) != 1 || len(v.Linkset[0]) != 3 {
		t.Errorf("not the linkset it should be: %v %v", err, v)
	}
	if empty := string(RenderLinkset(nil)); empty != "{\n  \"linkset\": []\n}\n" {
		t.Errorf("empty linkset: %q", empty)
	}
	// Two contexts, and every relation, in APIRelations order.
	two := RenderLinkset([]LinkContext{
		{Anchor: "a", Links: map[string][]LinkTarget{"item": {{Href: "i"}}, "service-meta": {{Href: "m"}}, "service-doc": {{Href: "d"}}}},
		{Anchor: "b"},
	})
	if err := json.Unmarshal(two, &v); err != nil || len(v.Linkset) != 2 {
		t.Fatalf("two contexts: %v\n%s", err, two)
	}
	s := string(two)
	if !(strings.Index(s, "service-doc") < strings.Index(s, "service-meta") && strings.Index(s, "service-meta") < strings.Index(s, "item")) {
		t.Errorf("relations out of order:\n%s", s)
	}
}

func TestCheckMediaType(t *testing.T) {
	for _, ok := range []string{"application/json", "text/html", "application/vnd.oai.openapi+json", "application/yaml; charset=utf-8",
		`application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"`} {
		if err := CheckMediaType(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "json", "text html", "*/*", "text/*", "application/", "/json", "a/b c", "text/html; charset", "te\"xt/html"} {
		if err := CheckMediaType(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

// isRestrictedName is the regular expression it replaced, on names of
// every length up to past the bound and of every character class.
func TestIsRestrictedName(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$`)
	r := rand.New(rand.NewPCG(1, 2))
	const chars = "aZ09!#$&^_.+-/*; \"\x00\xff"
	for range 20000 {
		n := r.IntN(131)
		if r.IntN(4) == 0 {
			n = 126 + r.IntN(3)
		}
		b := make([]byte, n)
		allowed := r.IntN(2) == 0 // half the names of allowed characters only
		for i := range b {
			switch {
			case !allowed || r.IntN(500) == 0:
				b[i] = chars[r.IntN(len(chars))]
			case i == 0:
				b[i] = chars[r.IntN(4)]
			default:
				b[i] = chars[r.IntN(13)]
			}
		}
		if got, want := isRestrictedName(string(b)), re.MatchString(string(b)); got != want {
			t.Fatalf("%q: %v, want %v", b, got, want)
		}
	}
}
