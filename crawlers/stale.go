package crawlers

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// RangeMaxAge is how long after it was read a range list may be used
// before presets and a build with a verified group warn that it may miss
// addresses its operator added since. Operators change their lists far
// more often than their crawlers' names (Google asks for a daily check),
// so it is half MaxAge: 90 days.
const RangeMaxAge = 90 * 24 * time.Hour

// Stale names the lists of c (those of keys, or every list and CDN when
// none is given) read more than RangeMaxAge before now: one sentence for
// the lists read on one day, oldest first; nil when none is.
func (c *RangeCatalogue) Stale(now time.Time, keys ...string) []string {
	if len(keys) == 0 {
		keys = c.Keys()
	}
	byRead := map[string][]string{}
	for _, k := range keys {
		s, ok := c.Lists[k]
		if !ok {
			if s, ok = c.CDNs[k]; !ok {
				continue
			}
		}
		d, err := time.Parse(time.DateOnly, s.Read)
		if err != nil || now.Sub(d) <= RangeMaxAge {
			continue
		}
		byRead[s.Read] = append(byRead[s.Read], k)
	}
	var out []string
	for _, read := range slices.Sorted(maps.Keys(byRead)) {
		d, _ := time.Parse(time.DateOnly, read)
		ks := byRead[read]
		slices.Sort(ks)
		what := "the range list " + ks[0] + " was"
		if len(ks) > 1 {
			what = "the range lists " + strings.Join(ks, ", ") + " were"
		}
		out = append(out, fmt.Sprintf("%s read on %s, %d days before %s: their operators may crawl from addresses added since, which a verified group refuses; refresh them with discgen presets --import-ranges, or update discgen",
			what, read, days(now.Sub(d)), now.UTC().Format(time.DateOnly)))
	}
	return out
}

// Stale says, when the search crawler list was recorded more than MaxAge
// before now, how old it is; "" otherwise.
func (l *SearchList) Stale(now time.Time) string {
	d, err := time.Parse(time.DateOnly, l.Recorded)
	if err != nil || now.Sub(d) <= MaxAge {
		return ""
	}
	return fmt.Sprintf("the search crawler list was recorded on %s, %d days before %s: names are checked against crawlers known then; update discgen",
		l.Recorded, days(now.Sub(d)), now.UTC().Format(time.DateOnly))
}

// StaleLists names each list shipped with discgen that is older than its
// age at now: the crawler catalogue and the search crawler list (MaxAge,
// from the day they were compiled and recorded) and the range lists
// (RangeMaxAge, from the day each was read).
func StaleLists(now time.Time) []string {
	var out []string
	for _, s := range []string{Default().Stale(now), Search().Stale(now)} {
		if s != "" {
			out = append(out, s)
		}
	}
	return append(out, DefaultRanges().Stale(now)...)
}

func days(d time.Duration) int { return int(d.Hours() / 24) }
