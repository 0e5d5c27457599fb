package crawlers

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"
)

//go:embed ranges.json
var rangesJSON []byte

// RangeSource is one published list of a crawler operator's (or a CDN's)
// addresses, as the range catalogue (ranges.json) ships it: where it is
// published, the copy that was read and the day it was read, and its
// prefixes.
type RangeSource struct {
	// Crawlers are the names whose requests come from these prefixes
	// (none for a CDN).
	Crawlers []string `json:"crawlers,omitempty"`
	Operator string   `json:"operator"`
	URL      string   `json:"url"`           // where the operator publishes the file
	Doc      string   `json:"documentation"` // the page that documents it
	// Copy names the copy that was read when it is not the URL itself
	// (a repository, its file and commit), with its licence.
	Copy         string   `json:"copy"`
	Licence      string   `json:"licence"`
	Read         string   `json:"read"`          // the day the copy was read (YYYY-MM-DD)
	CreationTime string   `json:"creation_time"` // the file's own creationTime
	Prefixes     []string `json:"prefixes"`

	parsed []netip.Prefix
}

// RangeCatalogue is the dated catalogue of published ranges.
type RangeCatalogue struct {
	Date    string                  `json:"date"`
	Lists   map[string]*RangeSource `json:"lists"`
	CDNs    map[string]*RangeSource `json:"cdns"`
	byAgent map[string]string       // lower-cased crawler name -> list key
}

var loadRanges = sync.OnceValues(func() (*RangeCatalogue, error) { return ParseRangeCatalogue(rangesJSON) })

// DefaultRanges returns the range catalogue shipped with discgen.
func DefaultRanges() *RangeCatalogue {
	c, err := loadRanges()
	if err != nil {
		panic("crawlers: the shipped range catalogue is invalid: " + err.Error())
	}
	return c
}

// ParseRangeCatalogue reads a range catalogue and checks it: a date, each
// list with a URL, a read date and prefixes that ParsePrefix accepts, no
// crawler name in two lists.
func ParseRangeCatalogue(data []byte) (*RangeCatalogue, error) {
	var c RangeCatalogue
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, err
	}
	if _, err := time.Parse(time.DateOnly, c.Date); err != nil {
		return nil, fmt.Errorf("date %q: %v", c.Date, err)
	}
	c.byAgent = map[string]string{}
	for kind, m := range map[string]map[string]*RangeSource{"list": c.Lists, "cdn": c.CDNs} {
		for key, s := range m {
			if s.URL == "" || s.Operator == "" {
				return nil, fmt.Errorf("%s %s: no url or operator", kind, key)
			}
			if _, err := time.Parse(time.DateOnly, s.Read); err != nil {
				return nil, fmt.Errorf("%s %s: read %q: %v", kind, key, s.Read, err)
			}
			if len(s.Prefixes) == 0 {
				return nil, fmt.Errorf("%s %s: no prefixes", kind, key)
			}
			for _, p := range s.Prefixes {
				pf, err := ParsePrefix(p, strings.Contains(p, ":"))
				if err != nil {
					return nil, fmt.Errorf("%s %s: %v", kind, key, err)
				}
				s.parsed = append(s.parsed, pf)
			}
			if kind == "cdn" {
				if len(s.Crawlers) > 0 {
					return nil, fmt.Errorf("cdn %s names crawlers", key)
				}
				continue
			}
			for _, n := range s.Crawlers {
				k := strings.ToLower(n)
				if other, dup := c.byAgent[k]; dup {
					return nil, fmt.Errorf("%s is in lists %s and %s", n, other, key)
				}
				c.byAgent[k] = key
			}
		}
	}
	return &c, nil
}

// For returns the key of the list that holds the crawler name (compared
// case-insensitively) and its prefixes.
func (c *RangeCatalogue) For(name string) (key string, prefixes []netip.Prefix, ok bool) {
	key, ok = c.byAgent[strings.ToLower(name)]
	if !ok {
		return "", nil, false
	}
	return key, c.Lists[key].parsed, true
}

// CDN returns a CDN's prefixes.
func (c *RangeCatalogue) CDN(name string) ([]netip.Prefix, bool) {
	s, ok := c.CDNs[name]
	if !ok {
		return nil, false
	}
	return s.parsed, true
}

// RangeDiff is what ImportRanges changes in one list.
type RangeDiff struct {
	Key, Kind              string // the list's key, and "list" or "cdn"
	FromRead, ToRead       string
	FromCreated, ToCreated string
	Added, Removed         []netip.Prefix
	Unchanged              int
	FromCopy, ToCopy       string
}

// ImportRanges replaces the prefixes of the list (or CDN) key with those
// of a downloaded file rl, read on the day read from the copy named copy
// ("" keeps the catalogue's), and returns the new catalogue and what
// changed. c is not changed.
func ImportRanges(c *RangeCatalogue, key string, rl *RangeList, read, copy string) (*RangeCatalogue, *RangeDiff, error) {
	if _, err := time.Parse(time.DateOnly, read); err != nil {
		return nil, nil, fmt.Errorf("date %q: %v", read, err)
	}
	n := &RangeCatalogue{Date: max(c.Date, read), Lists: maps.Clone(c.Lists), CDNs: maps.Clone(c.CDNs)}
	m, kind := n.Lists, "list"
	old, ok := m[key]
	if !ok {
		m, kind = n.CDNs, "cdn"
		if old, ok = m[key]; !ok {
			return nil, nil, fmt.Errorf("the range catalogue has no list %q; its lists: %s", key, strings.Join(c.Keys(), ", "))
		}
	}
	next := *old
	next.Read, next.CreationTime = read, rl.CreationTime
	if copy != "" {
		next.Copy = copy
	}
	next.Prefixes, next.parsed = nil, nil
	for _, p := range rl.Prefixes {
		next.Prefixes = append(next.Prefixes, p.String())
	}
	m[key] = &next
	d := &RangeDiff{Key: key, Kind: kind, FromRead: old.Read, ToRead: read, FromCreated: old.CreationTime, ToCreated: rl.CreationTime, FromCopy: old.Copy, ToCopy: next.Copy}
	have := map[netip.Prefix]bool{}
	for _, p := range old.parsed {
		have[p] = true
	}
	for _, p := range rl.Prefixes {
		if have[p] {
			d.Unchanged++
			delete(have, p)
		} else {
			d.Added = append(d.Added, p)
		}
	}
	for _, p := range old.parsed {
		if have[p] {
			d.Removed = append(d.Removed, p)
		}
	}
	out, err := ParseRangeCatalogue(FormatRanges(n))
	if err != nil {
		return nil, nil, fmt.Errorf("the refreshed range catalogue is invalid: %v", err)
	}
	return out, d, nil
}

// Keys returns the catalogue's list and CDN keys, sorted.
func (c *RangeCatalogue) Keys() []string {
	return slices.Sorted(func(yield func(string) bool) {
		for k := range c.Lists {
			if !yield(k) {
				return
			}
		}
		for k := range c.CDNs {
			if !yield(k) {
				return
			}
		}
	})
}

// Write prints the differences for people: the list's dates before and
// after, then each prefix added and removed.
func (d *RangeDiff) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: read %s (created %s) -> read %s (created %s)\n", d.Kind, d.Key, d.FromRead, d.FromCreated, d.ToRead, d.ToCreated)
	if d.FromCopy != d.ToCopy {
		fmt.Fprintf(&b, "copy: %s -> %s\n", d.FromCopy, d.ToCopy)
	}
	fmt.Fprintf(&b, "added %d:\n", len(d.Added))
	for _, p := range d.Added {
		fmt.Fprintf(&b, "  + %s\n", p)
	}
	fmt.Fprintf(&b, "removed %d:\n", len(d.Removed))
	for _, p := range d.Removed {
		fmt.Fprintf(&b, "  - %s\n", p)
	}
	fmt.Fprintf(&b, "unchanged %d\n", d.Unchanged)
	_, err := io.WriteString(w, b.String())
	return err
}

// FormatRanges writes a range catalogue in the layout of the shipped
// ranges.json: sorted keys, one prefix a line.
func FormatRanges(c *RangeCatalogue) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"date\": " + q(c.Date) + ",\n")
	for i, sec := range []struct {
		name string
		m    map[string]*RangeSource
	}{{"lists", c.Lists}, {"cdns", c.CDNs}} {
		b.WriteString("  " + q(sec.name) + ": {")
		for j, k := range slices.Sorted(maps.Keys(sec.m)) {
			s := sec.m[k]
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n    " + q(k) + ": {\n")
			if len(s.Crawlers) > 0 {
				names := make([]string, len(s.Crawlers))
				for i, n := range s.Crawlers {
					names[i] = q(n)
				}
				b.WriteString("      \"crawlers\": [" + strings.Join(names, ", ") + "],\n")
			}
			for _, f := range [][2]string{{"operator", s.Operator}, {"url", s.URL}, {"documentation", s.Doc}, {"copy", s.Copy},
				{"licence", s.Licence}, {"read", s.Read}, {"creation_time", s.CreationTime}} {
				b.WriteString("      " + q(f[0]) + ": " + q(f[1]) + ",\n")
			}
			b.WriteString("      \"prefixes\": [")
			for i, p := range s.Prefixes {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString("\n        " + q(p))
			}
			b.WriteString("\n      ]\n    }")
		}
		b.WriteString("\n  }")
		if i == 0 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes()
}
