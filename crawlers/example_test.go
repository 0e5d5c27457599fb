package crawlers_test

import (
	"fmt"

	"github.com/discgen/discgen/crawlers"
)

// A group of the manifest names agents and presets; Expand gives the
// names its robots.txt record holds: the named agents first, then the
// presets' agents in catalogue order, without those excepted and without
// repeats (names compare case-insensitively). The shipped catalogue is
// Default(); this one is parsed from a file of two presets.
func ExampleCatalogue_Expand() {
	cat, err := crawlers.Parse([]byte(`{
  "date": "2026-11-22",
  "purposes": {"ai-training": "crawlers that collect content to train AI models", "seo": "link-index and SEO crawlers"},
  "agents": [
    {"name": "ExampleTrainer", "operator": "Example AI", "purpose": "ai-training", "source": "https://ai.example/bot", "checked": ""},
    {"name": "OtherTrainer", "operator": "Other AI", "purpose": "ai-training", "source": "https://other.example/bot", "checked": ""},
    {"name": "LinkCounter", "operator": "Links Inc.", "purpose": "seo", "source": "https://links.example/bot", "checked": ""}
  ]
}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cat.Presets())
	fmt.Println(cat.Expand([]string{"MyBot", "othertrainer"}, []string{"ai-training", "seo"}, []string{"LinkCounter"}))
	// Output:
	// [ai-training seo]
	// [MyBot othertrainer ExampleTrainer]
}

// Before a name is written into a User-agent line, the index of known
// crawlers says whose names hold it: a reader that obeys the first record
// whose name is part of its own would give those crawlers its rules.
// A crawler documented to follow the name's group (Follows) obeys it
// anyway, which the caller weighs. Known() indexes the shipped search list
// and catalogue; this index holds three names.
func ExampleIndex_Holding() {
	ix := crawlers.NewIndex([]crawlers.Crawler{
		{Name: "Baiduspider", Operator: "Baidu"},
		{Name: "Sogou web spider", Operator: "Sogou"},
		{Name: "Googlebot-Image", Operator: "Google", Follows: "Googlebot"},
	})
	for _, name := range []string{"Spider", "googlebot", "Bingbot"} {
		fmt.Printf("%s:", name)
		for _, c := range ix.Holding(name) {
			fmt.Printf(" %s (%s", c.Name, c.Operator)
			if c.Follows != "" {
				fmt.Printf(", follows %s", c.Follows)
			}
			fmt.Print(")")
		}
		fmt.Println()
	}
	// Output:
	// Spider: Baiduspider (Baidu) Sogou web spider (Sogou)
	// googlebot: Googlebot-Image (Google, follows Googlebot)
	// Bingbot:
}
