// Package crawlers holds discgen's crawler catalogue: the agents that the
// manifest's presets name, each with its operator, purpose, the source its
// facts were taken from and the day they were checked against it. The
// catalogue is data shipped with the program (catalogue.json, see
// NOTICE.md), so builds stay offline; a catalogue more than MaxAge older
// than the build's time is reported as stale, and so is a range list read
// more than RangeMaxAge before it (StaleLists names every such list).
//
// Beside it ships a list of the major search engines' crawlers
// (search-crawlers.json), and Known indexes both, so that a name about to
// be written can be checked against every crawler whose name holds it.
// Import refreshes the catalogue from a newer ai.robots.txt robots.json.
package crawlers

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/discgen/discgen/robots"
)

//go:embed catalogue.json
var catalogueJSON []byte

// MaxAge is how old the catalogue may be, by the build's time, before a
// build warns that it may miss new crawlers.
const MaxAge = 180 * 24 * time.Hour

// Agent is one crawler of the catalogue.
type Agent struct {
	Name     string `json:"name"`     // its User-agent token
	Operator string `json:"operator"` // who runs it, or "unknown"
	Purpose  string `json:"purpose"`  // the preset it belongs to
	Source   string `json:"source"`   // a documentation URL (where its facts are documented), or a key of Catalogue.Sources
	// Checked is the day the entry's facts were checked against its
	// source: a listed source's date (its data was read), or for a
	// documentation URL the day the page was read; "" when nobody read it.
	Checked string `json:"checked"`
	// Control marks a token the operator documents as read by its other
	// crawlers and never sent by a fetcher (Google-Extended): no robot
	// presents it to a robots.txt reader.
	Control bool `json:"control,omitempty"`
}

// Source is a list the catalogue takes facts from.
type Source struct {
	URL     string `json:"url"`
	File    string `json:"file"`
	Commit  string `json:"commit"`
	Date    string `json:"date"`
	Licence string `json:"licence"`
}

// Catalogue is the whole catalogue.
type Catalogue struct {
	Date     string            `json:"date"` // when it was compiled (YYYY-MM-DD)
	Sources  map[string]Source `json:"sources"`
	Purposes map[string]string `json:"purposes"` // preset name -> what it holds
	// LeftOut names tokens of a listed source that no preset holds, each
	// with the reason (Import keeps them out).
	LeftOut map[string]string `json:"left_out"`
	Agents  []Agent           `json:"agents"`

	// For the shipped catalogue, which nothing modifies: the agents of
	// each preset, and the index of the agents' names, made once per
	// process rather than for every group that names a preset.
	presets     map[string][]Agent
	presetNames map[string][]string // the agents' names, as Expand gives them
	presetLower map[string][]string // and lower-cased
	names       func() *robots.NameSet
	generated   bool // taken from catalogue_gen.go
}

var load = sync.OnceValues(func() (*Catalogue, error) {
	c, generated, err := parseShipped()
	if err != nil {
		return nil, err
	}
	c.generated = generated
	c.presets = map[string][]Agent{}
	for p := range c.Purposes {
		c.presets[p] = nil
	}
	for _, a := range c.Agents {
		c.presets[a.Purpose] = append(c.presets[a.Purpose], a)
	}
	c.presetNames, c.presetLower = map[string][]string{}, map[string][]string{}
	for p, as := range c.presets {
		c.presets[p] = slices.Clip(as)
		names, lower := make([]string, len(as)), make([]string, len(as))
		for i, a := range as {
			names[i], lower[i] = a.Name, strings.ToLower(a.Name)
		}
		c.presetNames[p], c.presetLower[p] = names, lower
	}
	c.names = sync.OnceValue(c.nameSet)
	if generated && generatedNamesCatalogueSum == generatedCatalogueSum {
		c.names = sync.OnceValue(generatedNameSet)
	}
	return c, nil
})

// Default returns the catalogue shipped with discgen.
func Default() *Catalogue {
	c, err := load()
	if err != nil {
		panic("crawlers: the shipped catalogue is invalid: " + err.Error())
	}
	return c
}

// Parse reads a catalogue and checks it: a date, every agent with a name,
// a known purpose, an operator, a source that is a URL or a listed source,
// and a checked date that is empty or, for a listed source, its date; no
// name twice (names compare case-insensitively, as robots.txt readers
// compare them).
func Parse(data []byte) (*Catalogue, error) {
	var c Catalogue
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	if _, err := time.Parse(time.DateOnly, c.Date); err != nil {
		return nil, fmt.Errorf("date %q: %v", c.Date, err)
	}
	seen := map[string]bool{}
	for i, a := range c.Agents {
		at := fmt.Sprintf("agents[%d] (%s)", i, a.Name)
		switch k := strings.ToLower(a.Name); {
		case a.Name == "":
			return nil, fmt.Errorf("%s: no name", at)
		case seen[k]:
			return nil, fmt.Errorf("%s: listed twice", at)
		default:
			seen[k] = true
		}
		if _, ok := c.Purposes[a.Purpose]; !ok {
			return nil, fmt.Errorf("%s: unknown purpose %q", at, a.Purpose)
		}
		s, listed := c.Sources[a.Source]
		switch {
		case !listed && !strings.HasPrefix(a.Source, "https://"):
			return nil, fmt.Errorf("%s: source %q is neither a listed source nor an https URL", at, a.Source)
		case listed && a.Checked != s.Date:
			return nil, fmt.Errorf("%s: checked %q, but its source %s is of %s", at, a.Checked, a.Source, s.Date)
		case a.Checked != "":
			if _, err := time.Parse(time.DateOnly, a.Checked); err != nil {
				return nil, fmt.Errorf("%s: checked %q: %v", at, a.Checked, err)
			}
		}
		if a.Operator == "" {
			return nil, fmt.Errorf("%s: no operator (write unknown)", at)
		}
	}
	for name := range c.LeftOut {
		if seen[strings.ToLower(name)] {
			return nil, fmt.Errorf("left_out %s: it is also an agent", name)
		}
	}
	return &c, nil
}

// Presets returns the preset names, sorted.
func (c *Catalogue) Presets() []string {
	var out []string
	for p := range c.Purposes {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// Preset returns the agents of a preset, in catalogue order, and whether
// the preset exists. The list may be shared: the caller does not modify it.
func (c *Catalogue) Preset(name string) ([]Agent, bool) {
	if _, ok := c.Purposes[name]; !ok {
		return nil, false
	}
	if c.presets != nil {
		return c.presets[name], true
	}
	var out []Agent
	for _, a := range c.Agents {
		if a.Purpose == name {
			out = append(out, a)
		}
	}
	return out, true
}

// Names returns an index of the catalogue's agent names, for the policies
// whose groups name presets (robots.Policy.Names).
func (c *Catalogue) Names() *robots.NameSet {
	if c.names != nil {
		return c.names()
	}
	return c.nameSet()
}

func (c *Catalogue) nameSet() *robots.NameSet { return robots.NewNameSet(agentNames(c)) }

// generatedNameSet is the shipped catalogue's NameSet, made from the
// tables go generate computed for its names (names_gen.go), taken while
// the catalogue is the one they were made from: an edit without go
// generate is indexed at first use, and TestGeneratedNames fails until
// the file is made again.
func generatedNameSet() *robots.NameSet { return robots.NameSetFromTables(&generatedNames) }

// agentNames are the names of c's agents, in order.
func agentNames(c *Catalogue) []string {
	names := make([]string, len(c.Agents))
	for i, a := range c.Agents {
		names[i] = a.Name
	}
	return names
}

// Lookup returns the agent named name (case-insensitively).
func (c *Catalogue) Lookup(name string) (Agent, bool) {
	for _, a := range c.Agents {
		if strings.EqualFold(a.Name, name) {
			return a, true
		}
	}
	return Agent{}, false
}

// Stale says, when the catalogue is more than MaxAge older than now, how
// old it is; "" otherwise.
func (c *Catalogue) Stale(now time.Time) string {
	d, _ := time.Parse(time.DateOnly, c.Date)
	if now.Sub(d) <= MaxAge {
		return ""
	}
	return fmt.Sprintf("the crawler catalogue is from %s, %d days before %s: presets may miss crawlers that appeared since; update discgen",
		c.Date, int(now.Sub(d).Hours()/24), now.UTC().Format(time.DateOnly))
}

// SourceText names an agent's source for people: its URL, or the listed
// source with its URL and commit.
func (c *Catalogue) SourceText(a Agent) string {
	s, ok := c.Sources[a.Source]
	if !ok {
		return a.Source
	}
	commit := s.Commit
	if len(commit) > 12 {
		commit = commit[:12]
	}
	return fmt.Sprintf("%s (%s %s, commit %s, %s)", a.Source, s.URL, s.File, commit, s.Licence)
}

// Expand returns the agents of a group: names, then the agents of presets
// in catalogue order, leaving out those of except (which removes preset
// agents only) and repeats (names compare case-insensitively, as robots.txt
// readers compare them). Unknown presets add nothing.
//
// The list may be shared (a single preset of the shipped catalogue): the
// caller does not modify it.
func (c *Catalogue) Expand(names, presets, except []string) []string {
	if len(names) == 0 && len(except) == 0 && len(presets) == 1 && c.presetNames != nil {
		return c.presetNames[presets[0]] // its names are distinct
	}
	seen := map[string]bool{}
	var out []string
	add := func(n, k string) {
		if !seen[k] {
			seen[k] = true
			out = append(out, n)
		}
	}
	for _, n := range names {
		add(n, strings.ToLower(n))
	}
	for _, e := range except {
		seen[strings.ToLower(e)] = true
	}
	for _, p := range presets {
		if c.presetLower != nil {
			lower := c.presetLower[p]
			for i, n := range c.presetNames[p] {
				add(n, lower[i])
			}
			continue
		}
		as, _ := c.Preset(p)
		for _, a := range as {
			add(a.Name, strings.ToLower(a.Name))
		}
	}
	return out
}
