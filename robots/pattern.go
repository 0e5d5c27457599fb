package robots

import "strings"

// PatternMatches reports whether the robots.txt path pattern matches the
// URL path, both in Canonical form, as RFC 9309 matches Allow and
// Disallow: '*' any run of octets, a final '$' the end of the path, a
// prefix otherwise. Other files that borrow the rule (TDMRep's
// locations, RSL's content urls) match with it.
func PatternMatches(path, pattern string) bool {
	var m matcher
	return m.match(path, pattern)
}

// QuerySensitive reports whether a canonical path pattern may match a URL
// with a query differently from its path alone: a '*' followed by more
// (it may run into the query), a final '$' (it anchors the end of the
// query), or a '?'.
func QuerySensitive(p string) bool {
	if strings.HasSuffix(p, "$") || strings.Contains(p, "?") {
		return true
	}
	i := strings.IndexByte(p, '*')
	return i >= 0 && strings.TrimRight(p[i:], "*") != ""
}
