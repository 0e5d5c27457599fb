package crawlers

import (
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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

// Index finds the known crawlers whose names hold a given name. For each
// pair of adjacent bytes it keeps the set of names (lower-cased) holding
// the pair, as a bit set: the names holding a given name are among those
// in every set of its pairs, and a comparison of each such candidate
// decides. Building it costs one step per byte of the names (it was a map
// of every substring of every name, which cost a single-site build a
// sixth of its time); a look-up costs one step per byte of the name and
// one comparison per candidate, a few at most for the shipped names.
//
// It holds slices only, no map, so that the index of the shipped names is
// Go data written by `go generate` (known_gen.go): the first build that
// asks about a name finds it made, with nothing decoded or allocated but
// the answers it keeps.
type Index struct {
	crawlers []Crawler
	lower    []string
	byName   []int32                     // indexes of crawlers, by lower-cased name
	held     []atomic.Pointer[[]Crawler] // Holding of each indexed name, once asked
	words    int                         // uint64 words in a set
	pairs    []uint16                    // each pair of lower-cased bytes found, sorted
	setAt    []int32                     // offset in sets of the set of each pair
	sets     []uint64
	longest  int
}

// NewIndex indexes crawlers. Names compare case-insensitively; a name
// given twice is indexed once (the first).
func NewIndex(crawlers []Crawler) *Index {
	ix := &Index{}
	id := map[string]bool{}
	for _, c := range crawlers {
		k := strings.ToLower(c.Name)
		if id[k] || k == "" {
			continue
		}
		id[k] = true
		ix.crawlers = append(ix.crawlers, c)
		ix.lower = append(ix.lower, k)
		ix.longest = max(ix.longest, len(k))
	}
	ix.byName = make([]int32, len(ix.lower))
	for i := range ix.byName {
		ix.byName[i] = int32(i)
	}
	slices.SortFunc(ix.byName, func(a, b int32) int { return strings.Compare(ix.lower[a], ix.lower[b]) })
	ix.words = (len(ix.crawlers) + 63) / 64
	ix.held = make([]atomic.Pointer[[]Crawler], len(ix.crawlers))
	byPair := map[uint16][]uint64{}
	for n, k := range ix.lower {
		for i := 0; i+1 < len(k); i++ {
			p := pair(k[i:])
			set, ok := byPair[p]
			if !ok {
				set = make([]uint64, ix.words)
				byPair[p] = set
			}
			set[n/64] |= 1 << (n % 64)
		}
	}
	ix.pairs = slices.Sorted(maps.Keys(byPair))
	ix.setAt = make([]int32, len(ix.pairs))
	ix.sets = make([]uint64, 0, len(ix.pairs)*ix.words)
	for i, p := range ix.pairs {
		ix.setAt[i] = int32(len(ix.sets))
		ix.sets = append(ix.sets, byPair[p]...)
	}
	return ix
}

// id is the index of the crawler whose lower-cased name is k.
func (ix *Index) id(k string) (int32, bool) {
	i, ok := slices.BinarySearchFunc(ix.byName, k, func(n int32, k string) int { return strings.Compare(ix.lower[n], k) })
	if !ok {
		return 0, false
	}
	return ix.byName[i], true
}

// set is the set of the names holding the pair p, nil for none.
func (ix *Index) set(p uint16) []uint64 {
	i, ok := slices.BinarySearch(ix.pairs, p)
	if !ok {
		return nil
	}
	at := int(ix.setAt[i])
	return ix.sets[at : at+ix.words]
}

func pair(s string) uint16 { return uint16(s[0])<<8 | uint16(s[1]) }

// Holding returns the known crawlers whose names hold name as a proper
// part (case-insensitively), in the order they were indexed. The answer
// for an indexed name (every preset's agent is one) is kept, and shared
// by later calls: the caller does not modify it.
func (ix *Index) Holding(name string) []Crawler {
	k := strings.ToLower(name)
	if k == "" || len(k) >= ix.longest {
		return nil
	}
	if i, ok := ix.id(k); ok {
		if p := ix.held[i].Load(); p != nil {
			return *p
		}
		out := slices.Clip(ix.holding(k))
		ix.held[i].Store(&out)
		return out
	}
	return ix.holding(k)
}

func (ix *Index) holding(k string) []Crawler {
	var out []Crawler
	hold := func(n int) {
		if c := ix.crawlers[n]; len(c.Name) != len(k) && strings.Contains(ix.lower[n], k) {
			out = append(out, c)
		}
	}
	if len(k) == 1 {
		for n := range ix.crawlers {
			hold(n)
		}
		return out
	}
	cand := make([]uint64, ix.words)
	for i := 0; i+1 < len(k); i++ {
		set := ix.set(pair(k[i:]))
		if set == nil {
			return nil
		}
		if i == 0 {
			copy(cand, set)
			continue
		}
		for w := range cand {
			cand[w] &= set[w]
		}
	}
	for w, set := range cand {
		for ; set != 0; set &= set - 1 {
			hold(w*64 + bits.TrailingZeros64(set))
		}
	}
	return out
}

// Known returns the index of every crawler known to the search list and
// the shipped catalogue (control tokens left out: no robot presents them),
// the search engines' first, in the order of their files.
func Known() *Index { return known() }

var known = sync.OnceValue(makeKnown)

// makeKnown returns the generated index (known_gen.go) while the search
// list and the catalogue are those it was made from, and otherwise
// indexes them as they are: an edit without `go generate` is indexed at
// first use, and TestGeneratedKnown fails until the file is made again.
func makeKnown() *Index {
	if Default().generated && generatedKnownCatalogueSum == generatedCatalogueSum && sha256.Sum256(searchJSON) == generatedKnownSearchSum {
		ix := generatedKnown
		ix.held = make([]atomic.Pointer[[]Crawler], len(ix.crawlers))
		return &ix
	}
	search, err := ParseSearch(searchJSON)
	if err != nil {
		panic("crawlers: the shipped search crawler list is invalid: " + err.Error())
	}
	return indexKnown(search, Default())
}

// indexKnown indexes the crawlers of a search list and a catalogue, the
// search engines' first, control tokens left out.
func indexKnown(search *SearchList, cat *Catalogue) *Index {
	var cs []Crawler
	for _, s := range search.Crawlers {
		cs = append(cs, Crawler{Name: s.Name, Operator: s.Operator, Follows: s.Follows})
	}
	for _, a := range cat.Agents {
		if !a.Control {
			cs = append(cs, Crawler{Name: a.Name, Operator: a.Operator})
		}
	}
	return NewIndex(cs)
}
