package robots

import "strings"

// Match1996 answers as the 1996 robots.txt draft does (seed 001, section
// 3.2):
//
//   - The robot obeys the first group with a User-agent value that contains
//     its name as a substring, case insensitively; else the first group for
//     "*"; else everything is allowed. Its name is agent without its version
//     (AgentName: "FigTree/0.1 Robot" is "figtree", "MJ12bot/1.4" is
//     "mj12bot"); an empty name matches only
//     "*". Groups are not merged.
//   - The group's Allow and Disallow lines are tried in file order and the
//     first whose path is a prefix of the URL's path decides; none matching
//     allows. An empty path matches nothing.
//   - Both sides have %xx escapes decoded before comparison except %2F.
//     '*' and '$' are ordinary characters.
//   - /robots.txt is always allowed.
//
// Groups are those Parse finds; a blank line does not end one.
func (f *File) Match1996(agent, url string) Verdict {
	path := decode1996(PathOf(url))
	if isRobotsTxt(path) {
		return Verdict{Allowed: true}
	}
	return match1996Group(f.group1996(AgentName(agent)), path)
}

// match1996Group is Match1996 in group g (nil: none), for a decoded path.
func match1996Group(g *Group, path string) Verdict {
	if g == nil {
		return Verdict{Allowed: true}
	}
	for i := range g.Rules {
		r := &g.Rules[i]
		if r.Value == "" {
			continue
		}
		// Decoded as it is compared, not as it is parsed: one group's
		// rules are compared, and most hold no escape (decode1996 then
		// returns the value itself).
		if strings.HasPrefix(path, decode1996(r.Value)) {
			return Verdict{Allowed: r.Allow, Rule: r.String(), Line: r.Num}
		}
	}
	return Verdict{Allowed: true}
}

func (f *File) group1996(name string) *Group {
	if name != "" {
		lname := strings.ToLower(name)
		for i := range f.Groups {
			for _, a := range f.Groups[i].Agents {
				if !a.Global && strings.Contains(strings.ToLower(a.Value), lname) {
					return &f.Groups[i]
				}
			}
		}
	}
	for i := range f.Groups {
		for _, a := range f.Groups[i].Agents {
			if a.Global {
				return &f.Groups[i]
			}
		}
	}
	return nil
}
