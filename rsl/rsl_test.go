package rsl_test

import (
	"strings"
	"testing"

	"github.com/discgen/discgen/rsl"
)

const good = `<?xml version="1.0" encoding="UTF-8"?>
<rsl xmlns="https://rslstandard.org/rsl">
  <content url="/" server="https://rsl.example/api">
    <license>
      <permits type="usage">search</permits>
      <prohibits type="usage">ai-train</prohibits>
      <payment type="crawl">
        <standard>https://rsl.example/standard</standard>
      </payment>
    </license>
  </content>
  <content url="https://example.org/images/*.jpg$" server="https://rsl.example/api"/>
</rsl>
`

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string
	}{
		{"good", good, nil},
		{"not xml", "<rsl xmlns=\"https://rslstandard.org/rsl\">\n  <content url=\"/\">\n</rsl>\n", []string{"3:1: not well-formed XML: element <content> closed by </rsl>"}},
		{"empty", "", []string{"1:1: no root element: an RSL document is <rsl xmlns=\"https://rslstandard.org/rsl\"> with content elements"}},
		{"no namespace", "<?xml version=\"1.0\"?>\n<rsl><content url=\"/\"><license/></content></rsl>", []string{"2:1: the root element is rsl in no namespace; an RSL document's root is rsl in the namespace https://rslstandard.org/rsl (xmlns=\"https://rslstandard.org/rsl\")"}},
		{"other namespace", `<rsl xmlns="http://rslstandard.org/rsl"/>`, []string{"1:1: the root element is rsl in the namespace http://rslstandard.org/rsl; an RSL document's root is rsl in the namespace https://rslstandard.org/rsl (xmlns=\"https://rslstandard.org/rsl\")"}},
		{"no content", `<rsl xmlns="https://rslstandard.org/rsl"></rsl>`, []string{"1:1: rsl has no content element: RSL 1.0 requires one or more"}},
		{"doctype", "<!DOCTYPE rsl [<!ENTITY a \"b\">]>\n<rsl xmlns=\"https://rslstandard.org/rsl\"/>", []string{"1:1: a document type declaration is not allowed: an RSL document needs none"}},
		{"content", `<rsl xmlns="https://rslstandard.org/rsl">
  <content><license/></content>
  <content url="images/"><license/></content>
  <content url="/x" server="/api"><license/></content>
  <content url="/y"/>
  <content url="/z"><license>
    <permits>search</permits>
    <prohibits type="use">ai-train</prohibits>
    <payment><custom>
      mailto:x@example.org</custom></payment>
  </license></content>
</rsl>`, []string{
			"2:3: content needs a url attribute: the URL or path (from \"/\") of the assets it licenses",
			"3:3: content url \"images/\" is neither an absolute http(s) URL nor a path starting with \"/\"",
			"4:3: content server \"/api\" must be an absolute http(s) URL",
			"5:3: content has no license element (and no server attribute naming a licence server): it grants nothing a reader can act on",
			"7:5: permits needs a type attribute: usage, user or geo",
			"8:5: prohibits type \"use\" is not usage, user or geo",
			"10:7: custom must hold an absolute http(s) URL, not \"mailto:x@example.org\"",
		}},
		{"latin1", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rsl xmlns=\"https://rslstandard.org/rsl\"/>", []string{"1:1: the document declares the encoding \"ISO-8859-1\"; an RSL document discgen publishes must be UTF-8"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, p := range rsl.Check([]byte(tc.doc)) {
				got = append(got, p.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
