package validate

import (
	"maps"
	"slices"
	"strings"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
)

// verified checks the groups with verified: true (design section 14):
// each names crawlers, and each crawler has ranges, from verified_ranges
// or discgen's range catalogue; the files verified_ranges names are
// manifest-relative paths; verified_ranges and verified_cdn serve a
// verified group. The files are read by the build (generate), which
// reports a bad file at its own line and column.
func (v *checker) verified(m *manifest.Site) {
	local := map[string]string{} // lower-cased name -> as written
	for name, file := range m.VerifiedRanges {
		p := manifest.Key("verified_ranges", name)
		local[strings.ToLower(name)] = name
		v.localPath(p, file)
	}
	used := map[string]bool{}
	some := false
	for i, g := range m.Agents {
		if !g.Verified {
			continue
		}
		some = true
		vp := manifest.Key(manifest.Index("agents", i), "verified")
		names := model.VerifiedNames(g)
		if len(names) == 0 {
			v.errKey(vp, "verified needs named crawlers: \"*\" claims no identity to check")
			continue
		}
		var missing, lists []string
		for _, n := range names {
			if w, ok := local[strings.ToLower(n)]; ok {
				used[w] = true
				continue
			}
			key, _, ok := crawlers.DefaultRanges().For(n)
			if !ok {
				missing = append(missing, n)
			} else if !slices.Contains(lists, key) {
				lists = append(lists, key)
			}
		}
		if len(lists) > 0 && !v.opt.Now.IsZero() {
			for _, s := range crawlers.DefaultRanges().Stale(v.opt.Now, lists...) {
				v.warnKey(vp, "%s", s)
			}
		}
		if len(missing) > 0 {
			v.errKey(vp, "%s: no published address ranges in discgen's range catalogue (of %s), and verified_ranges names no file for %s; give one, or leave %s out of this group",
				strings.Join(missing, ", "), crawlers.DefaultRanges().Date, plural(len(missing), "it", "them"), plural(len(missing), "it", "them"))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m.VerifiedRanges)) {
		if !used[name] {
			v.warnKey(manifest.Key("verified_ranges", name), "no group with verified: true names %s: this file is not used", name)
		}
	}
	if m.VerifiedCDN != nil && !some {
		v.warnKey("verified_cdn", "no group has verified: true: the CDN's header is not used")
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
