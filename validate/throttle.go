package validate

import (
	"strings"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/serverconf"
)

// throttle checks the groups with throttle (design section 16): a rate
// serverconf can write (N/s or N/m, within bounds; the schema bounds the
// burst), named crawlers ("*" would slow every client, browsers
// included), and each crawler throttled by one group only, so that its
// pace is the one the manifest states.
func (v *checker) throttle(m *manifest.Site) {
	by := map[string]int{} // lower-cased name -> the group that throttles it
	for i, g := range m.Agents {
		if g.Throttle == nil {
			continue
		}
		tp := manifest.Key(manifest.Index("agents", i), "throttle")
		if g.Throttle.Rate != "" {
			if _, err := serverconf.ParseRate(g.Throttle.Rate); err != nil {
				v.err(manifest.Key(tp, "rate"), "%v", err)
			}
		}
		names := model.VerifiedNames(g)
		if len(names) == 0 {
			v.errKey(tp, "throttle needs named crawlers: \"*\" would slow every client, browsers included")
			continue
		}
		for _, n := range names {
			k := strings.ToLower(n)
			if j, ok := by[k]; ok && j != i {
				v.errKey(tp, "%s is throttled by %s already: a crawler keeps one pace; leave it out of one group (except_agents)", n, manifest.Index("agents", j))
				break
			}
			by[k] = i
		}
	}
}
