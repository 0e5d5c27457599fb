package robots

// PatternMatches reports whether the robots.txt path pattern matches the
// URL path, both in Canonical form, as RFC 9309 matches Allow and
// Disallow: '*' any run of octets, a final '$' the end of the path, a
// prefix otherwise. Other files that borrow the rule (TDMRep's
// locations, RSL's content urls) match with it.
func PatternMatches(path, pattern string) bool {
	var m matcher
	return m.match(path, pattern)
}
