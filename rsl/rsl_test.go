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

// feed is an RSS 2.0 licence feed: RSL 1.0 lets a License line name one,
// its items licensed by rsl:content elements (rslstandard.org, "File
// Format: License Feeds").
const feed = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:rsl="https://rslstandard.org/rsl">
  <channel>
    <title>Fict.org</title>
    <link>https://example.org/</link>
    <description>Articles</description>
    <rsl:content url="https://example.org/" server="https://rsl.example/api"/>
    <item>
      <title>A</title>
      <link>https://example.org/a</link>
      <rsl:content url="https://example.org/a" encrypted="false" lastmod="2025-11-06T10:00:00Z">
        <rsl:license>
          <rsl:permits type="usage">search</rsl:permits>
          <rsl:payment type="crawl"><rsl:standard>https://rsl.example/standard</rsl:standard></rsl:payment>
        </rsl:license>
      </rsl:content>
    </item>
  </channel>
</rss>
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
		{"attributes", `<rsl xmlns="https://rslstandard.org/rsl">
  <content url="/a" server="https://rsl.example/api" encrypted="maybe" lastmod="yesterday"/>
  <content url="/b" server="https://rsl.example/api" encrypted="true" lastmod="2025-11-06T10:00:00Z"/>
  <content url="/c" server="https://rsl.example/api" encrypted="false" lastmod="2025-11-06T10:00:00.5+01:00"/>
  <content url="/d" server="https://rsl.example/api" encrypted="1" lastmod="2025-11-06"/>
  <content url="/e" server="https://rsl.example/api" encrypted="" lastmod="2025-13-06T10:00:00Z"/>
</rsl>`, []string{
			"2:3: content encrypted \"maybe\" is not a boolean: true or false",
			"2:3: content lastmod \"yesterday\" is not an RFC 3339 date-time, such as 2025-11-06T10:00:00Z",
			"5:3: content encrypted \"1\" is not a boolean: true or false",
			"5:3: content lastmod \"2025-11-06\" is not an RFC 3339 date-time, such as 2025-11-06T10:00:00Z",
			"6:3: content encrypted \"\" is not a boolean: true or false",
			"6:3: content lastmod \"2025-13-06T10:00:00Z\" is not an RFC 3339 date-time, such as 2025-11-06T10:00:00Z",
		}},
		{"feed", feed, nil},
		{"feed problems", `<rss version="2.0" xmlns:rsl="https://rslstandard.org/rsl">
  <channel>
    <title>Fict</title>
    <item>
      <link>https://example.org/a</link>
      <rsl:content url="a" encrypted="no"><rsl:license><rsl:permits>search</rsl:permits></rsl:license></rsl:content>
    </item>
    <item><rsl:content url="/b"/></item>
  </channel>
</rss>`, []string{
			"6:7: content url \"a\" is neither an absolute http(s) URL nor a path starting with \"/\"",
			"6:7: content encrypted \"no\" is not a boolean: true or false",
			"6:56: permits needs a type attribute: usage, user or geo",
			"8:11: content has no license element (and no server attribute naming a licence server): it grants nothing a reader can act on",
		}},
		{"feed without content", "<rss version=\"2.0\" xmlns:rsl=\"https://rslstandard.org/rsl\">\n<channel><item><title>x</title></item></channel>\n</rss>",
			[]string{"1:1: the feed has no rsl:content element in its channel or an item: an RSL licence feed licenses content with one or more"}},
		{"feed version", "<rss version=\"0.91\"><channel><item><content xmlns=\"https://rslstandard.org/rsl\" url=\"/\" server=\"https://rsl.example/\"/></item></channel></rss>",
			[]string{"1:1: rss version \"0.91\": an RSL licence feed is RSS 2.0 (version=\"2.0\")"}},
		{"feed content elsewhere", "<rss version=\"2.0\" xmlns:rsl=\"https://rslstandard.org/rsl\"><channel><item><x><rsl:content url=\"/\" server=\"https://rsl.example/\"/></x></item></channel></rss>",
			[]string{"1:78: rsl:content stands in x; in a feed it stands in the channel or an item",
				"1:1: the feed has no rsl:content element in its channel or an item: an RSL licence feed licenses content with one or more"}},
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
