package robots

import "strings"

// maxIndexedName is the longest name whose 1996 group lintIndex finds by
// looking up substrings of User-agent values; longer names (rare) are
// found by scanning the values.
const maxIndexedName = 64

// lintIndex answers, for the names a file lists, which groups each reading
// applies, in time linear in the file's size: Match and Match1996 look
// through every group on each call, which makes a check per name
// quadratic.
type lintIndex struct {
	f *File
	// byToken: lower-cased product token -> the groups naming it (RFC 9309).
	byToken map[string][]int
	global  []int
	// first1996: lower-cased name -> the first group with a User-agent
	// value containing it (1996); absent: none.
	first1996   map[string]int
	firstGlobal int
}

// newLintIndex indexes f for the given names (lower case) besides the
// product tokens of its User-agent lines.
func newLintIndex(f *File, extra ...string) *lintIndex {
	x := &lintIndex{f: f, byToken: map[string][]int{}, first1996: map[string]int{}, firstGlobal: -1}
	want := map[string]bool{}
	for _, e := range extra {
		want[e] = true
	}
	for gi, g := range f.Groups {
		for _, a := range g.Agents {
			if a.Global {
				if x.firstGlobal < 0 {
					x.firstGlobal = gi
				}
				if len(x.global) == 0 || x.global[len(x.global)-1] != gi {
					x.global = append(x.global, gi)
				}
				continue
			}
			if a.Token == "" {
				continue
			}
			k := strings.ToLower(a.Token)
			want[k] = true
			if gs := x.byToken[k]; len(gs) == 0 || gs[len(gs)-1] != gi {
				x.byToken[k] = append(gs, gi)
			}
		}
	}
	var long []string
	for n := range want {
		if len(n) > maxIndexedName {
			long = append(long, n)
		}
	}
	for gi, g := range f.Groups {
		for _, a := range g.Agents {
			if a.Global {
				continue
			}
			v := strings.ToLower(a.Value)
			for i := range v {
				for j := i + 1; j <= len(v) && j-i <= maxIndexedName; j++ {
					s := v[i:j]
					if want[s] {
						if _, ok := x.first1996[s]; !ok {
							x.first1996[s] = gi
						}
					}
				}
			}
			for _, n := range long {
				if _, ok := x.first1996[n]; !ok && strings.Contains(v, n) {
					x.first1996[n] = gi
				}
			}
		}
	}
	return x
}

// groups returns the groups RFC 9309 applies to a product token.
func (x *lintIndex) groups(token string) []int {
	if gs := x.byToken[strings.ToLower(token)]; len(gs) > 0 {
		return gs
	}
	return x.global
}

// group1996 returns the group the 1996 draft applies to a name, or nil.
func (x *lintIndex) group1996(name string) *Group {
	if name != "" {
		if gi, ok := x.first1996[strings.ToLower(name)]; ok {
			return &x.f.Groups[gi]
		}
	}
	if x.firstGlobal >= 0 {
		return &x.f.Groups[x.firstGlobal]
	}
	return nil
}

// check is File.Check through the index, for a product token and a path.
func (x *lintIndex) check(token, url string) Readings {
	path := PathOf(url)
	if isRobotsTxt(path) {
		return Readings{RFC9309: Verdict{Allowed: true}, Draft1996: Verdict{Allowed: true}}
	}
	return Readings{
		RFC9309:   x.f.matchGroups(x.groups(token), path),
		Draft1996: match1996Group(x.group1996(token), decode1996(path)),
	}
}
