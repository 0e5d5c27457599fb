package wellknown

import (
	"encoding/json"
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
