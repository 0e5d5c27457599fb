package crawlers

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"
)

//go:embed search-crawlers.json
var searchJSON []byte

// SearchCrawler is a crawler of a search engine, as its operator
// documents it.
type SearchCrawler struct {
	// Name is the name the crawler gives itself to a robots.txt reader;
	// it may hold spaces ("Sogou web spider").
	Name     string `json:"name"`
	Operator string `json:"operator"`
	Source   string `json:"source"` // the operator's documentation page
	// Follows names the crawler whose group this one obeys when no group
	// names it, as its operator documents (Googlebot-Image follows
	// Googlebot); "" for none.
	Follows string `json:"follows,omitempty"`
}

// SearchList is the list of search crawlers shipped with the catalogue.
// Its entries were recorded from their sources as documented, on Recorded;
// the pages were not fetched that day.
type SearchList struct {
	Recorded string          `json:"recorded"`
	Crawlers []SearchCrawler `json:"crawlers"`
}

// ParseSearch reads a search crawler list and checks it: a recorded date,
// every crawler with a name, an operator and an https source, no name
// twice (case-insensitively), and a follows naming a listed crawler.
func ParseSearch(data []byte) (*SearchList, error) {
	var l SearchList
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, err
	}
	if _, err := time.Parse(time.DateOnly, l.Recorded); err != nil {
		return nil, fmt.Errorf("recorded %q: %v", l.Recorded, err)
	}
	seen := map[string]bool{}
	for _, s := range l.Crawlers {
		seen[strings.ToLower(s.Name)] = true
	}
	names := map[string]bool{}
	for i, s := range l.Crawlers {
		at := fmt.Sprintf("crawlers[%d] (%s)", i, s.Name)
		k := strings.ToLower(s.Name)
		switch {
		case s.Name == "" || s.Operator == "":
			return nil, fmt.Errorf("%s: a crawler needs a name and an operator", at)
		case names[k]:
			return nil, fmt.Errorf("%s: listed twice", at)
		case !strings.HasPrefix(s.Source, "https://"):
			return nil, fmt.Errorf("%s: source %q is not an https URL", at, s.Source)
		case s.Follows != "" && !seen[strings.ToLower(s.Follows)]:
			return nil, fmt.Errorf("%s: follows %q, which is not listed", at, s.Follows)
		}
		names[k] = true
	}
	return &l, nil
}

var loadSearch = sync.OnceValues(func() (*SearchList, error) { return ParseSearch(searchJSON) })

// Search returns the search crawler list shipped with discgen.
func Search() *SearchList {
	l, err := loadSearch()
	if err != nil {
		panic("crawlers: the shipped search crawler list is invalid: " + err.Error())
	}
	return l
}

// Crawler is a crawler known to the catalogue or the search list.
type Crawler struct {
	Name     string
	Operator string
	Follows  string // as SearchCrawler.Follows
}

// Index finds the known crawlers whose names hold a given name. It maps
// every substring of every known name (lower-cased) to the names holding
// it, so a look-up costs one map access whatever the number of names.
type Index struct {
	crawlers []Crawler
	bySub    map[string][]int32 // lower-cased substring -> indexes into crawlers
	longest  int
}

// NewIndex indexes crawlers. Names compare case-insensitively; a name
// given twice is indexed once (the first).
func NewIndex(crawlers []Crawler) *Index {
	ix := &Index{bySub: map[string][]int32{}}
	seen := map[string]bool{}
	for _, c := range crawlers {
		k := strings.ToLower(c.Name)
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		n := int32(len(ix.crawlers))
		ix.crawlers = append(ix.crawlers, c)
		ix.longest = max(ix.longest, len(k))
		subs := map[string]bool{}
		for i := range len(k) {
			for j := i + 1; j <= len(k); j++ {
				if s := k[i:j]; !subs[s] {
					subs[s] = true
					ix.bySub[s] = append(ix.bySub[s], n)
				}
			}
		}
	}
	return ix
}

// Holding returns the known crawlers whose names hold name as a proper
// part (case-insensitively), in the order they were indexed.
func (ix *Index) Holding(name string) []Crawler {
	k := strings.ToLower(name)
	if k == "" || len(k) >= ix.longest {
		return nil
	}
	var out []Crawler
	for _, i := range ix.bySub[k] {
		if c := ix.crawlers[i]; len(c.Name) != len(k) {
			out = append(out, c)
		}
	}
	return out
}

// Known returns the index of every crawler known to the search list and
// the shipped catalogue (control tokens left out: no robot presents them),
// the search engines' first, in the order of their files.
func Known() *Index { return known() }

var known = sync.OnceValue(func() *Index {
	var cs []Crawler
	for _, s := range Search().Crawlers {
		cs = append(cs, Crawler{Name: s.Name, Operator: s.Operator, Follows: s.Follows})
	}
	for _, a := range Default().Agents {
		if !a.Control {
			cs = append(cs, Crawler{Name: a.Name, Operator: a.Operator})
		}
	}
	return NewIndex(cs)
})
