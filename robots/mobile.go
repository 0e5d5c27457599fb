package robots

import "strings"

// MobileAgentServer returns the Mobile-agent-server line that applies to a
// URL (seed 002): of the lines whose path is a prefix of the URL's path, the
// last one, since "more recent lines always override older ones". Server is
// the host URL or "none"; ok is false when no line applies.
func (f *File) MobileAgentServer(url string) (server string, line int, ok bool) {
	path := decode1996(PathOf(url))
	for _, l := range f.MobileAgents {
		p, s, found := strings.Cut(l.Value, " ")
		if !found {
			p, s, found = strings.Cut(l.Value, "\t")
		}
		if !found {
			continue
		}
		if strings.HasPrefix(path, decode1996(p)) {
			server, line, ok = strings.TrimSpace(s), l.Num, true
		}
	}
	return server, line, ok
}
