package robots_test

import (
	"fmt"

	"github.com/discgen/discgen/robots"
)

// A robots.txt is parsed once and asked about agents and URLs; the rule
// that decided comes back with its line.
func ExampleParse() {
	f := robots.Parse([]byte(`User-agent: *
Disallow: /private/
Allow: /private/press/

User-agent: ExampleBot
Disallow: /

Sitemap: https://example.org/sitemap.xml
`))
	for _, q := range []struct{ agent, url string }{
		{"Mozilla/5.0", "https://example.org/private/notes.html"},
		{"Mozilla/5.0", "https://example.org/private/press/2026.html"},
		{"ExampleBot/1.0", "https://example.org/"},
		{"ExampleBot/1.0", "https://example.org/robots.txt"},
	} {
		v := f.Match(q.agent, q.url)
		fmt.Printf("%s %s: allowed %v (%q, line %d)\n", q.agent, q.url, v.Allowed, v.Rule, v.Line)
	}
	fmt.Println(len(f.Groups), "groups,", len(f.Sitemaps), "sitemap")
	// Output:
	// Mozilla/5.0 https://example.org/private/notes.html: allowed false ("Disallow: /private/", line 2)
	// Mozilla/5.0 https://example.org/private/press/2026.html: allowed true ("Allow: /private/press/", line 3)
	// ExampleBot/1.0 https://example.org/: allowed false ("Disallow: /", line 6)
	// ExampleBot/1.0 https://example.org/robots.txt: allowed true ("", line 0)
	// 2 groups, 1 sitemap
}

// What a careful author would fix is in the parsed file's findings, each
// at its line.
func ExampleParse_findings() {
	f := robots.Parse([]byte(`Disallow: /tmp/
User-agent: *
Dissallow: /private/
`))
	for _, x := range f.Findings {
		fmt.Println(x)
	}
	// Output:
	// 1: warning R002: Disallow before any User-agent line is ignored
	// 3: warning R013: "Dissallow" read as Disallow
}

// Emit writes a policy as a robots.txt that the common readers read
// alike: a record per agent, a name before the longer names that contain
// it (a 1996 reader obeys the first record whose name it contains), the
// "*" record last, the longest rule of a record first, and the file-level
// lines after the records.
func ExampleEmit() {
	out, err := robots.Emit(robots.Policy{
		Groups: []robots.PolicyGroup{
			{Agents: []string{"*"}, Rules: []robots.PathRule{{Path: "/private/"}, {Allow: true, Path: "/private/press/"}}},
			{Agents: []string{"NewsBot", "Bot"}, Rules: []robots.PathRule{{Path: "/"}}},
		},
		Sitemaps: []string{"https://example.org/sitemap.xml"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// User-agent: Bot
	// Disallow: /
	//
	// User-agent: NewsBot
	// Disallow: /
	//
	// User-agent: *
	// Allow: /private/press/
	// Disallow: /private/
	//
	// Sitemap: https://example.org/sitemap.xml
}
