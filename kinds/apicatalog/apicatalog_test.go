package apicatalog

import (
	"reflect"
	"testing"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

func site(entries ...Entry) *manifest.Site {
	s := &manifest.Site{}
	s.Site.URL = "https://WWW.Example.org/base/"
	kit.SetValue(s, Kind{}.Key(), &entries)
	return s
}

// TestRender: relative URLs resolve against site.url, in canonical form;
// the relations are written in RFC 9727's order whatever the manifest's.
func TestRender(t *testing.T) {
	s := site(Entry{
		Anchor: "/api/v1/",
		Item:   []Target{{Href: "https://api.example.org/caf%c3%a9"}},
		ServiceDesc: []Target{
			{Href: "openapi.json", Type: "application/vnd.oai.openapi+json", Title: "OpenAPI"},
		},
	})
	got, ok := Kind{}.Render(s, kit.Build{})
	if !ok {
		t.Fatal("no file")
	}
	want := `{
  "linkset": [
    {
      "anchor": "https://www.example.org/api/v1/",
      "service-desc": [
        {
          "href": "https://www.example.org/base/openapi.json",
          "type": "application/vnd.oai.openapi+json",
          "title": "OpenAPI"
        }
      ],
      "item": [
        {
          "href": "https://api.example.org/caf%C3%A9"
        }
      ]
    }
  ]
}
`
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestCheck: each finding at its field relative to the key, a repeated
// anchor pointing at the first.
func TestCheck(t *testing.T) {
	s := site(
		Entry{Anchor: "/api/", Status: []Target{{Href: "/../x", Type: "text/*"}}},
		Entry{Anchor: "/api/", Item: []Target{{Href: "https://a.example/"}}},
		Entry{Anchor: "mailto:x@example.org"},
	)
	var got []string
	for _, f := range (Kind{}).Check(s, kit.Build{}) {
		got = append(got, f.String()+" <"+f.First+">")
	}
	want := []string{
		`[0].status[0].href: "/../x" leaves the site through "..": relative URLs resolve against site.url and must stay inside it; give a path from the root or an absolute URL <>`,
		`[0].status[0].type: "text/*" is not a media type (type/subtype, as application/json) <>`,
		`warning: [1].anchor: anchor "/api/" is listed twice: give all its links in one entry <[0].anchor>`,
		`[2].anchor: "mailto:x@example.org": an anchor must be a path or an absolute http(s) URL <>`,
		`warning: [2]: the entry for "mailto:x@example.org" has no links: give service_desc, service_doc, service_meta, status or item <>`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
}

// TestServed: the api-catalog is served with RFC 9727's profile and
// names itself in a Link header.
func TestServed(t *testing.T) {
	var k kit.Kind = Kind{}
	if got := k.MediaType(); got != `application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"` {
		t.Errorf("MediaType = %q", got)
	}
	l, ok := k.(kit.Linked)
	if !ok || l.Link() != `</.well-known/api-catalog>; rel="api-catalog"` {
		t.Errorf("Link = %v %v", l, ok)
	}
}
