package robots

import (
	"fmt"
	"strings"
)

// isAgentNameChar reports whether c may appear in an agent name: a product
// token character, a digit or a dot.
func isAgentNameChar(c byte) bool {
	return isProductTokenChar(c) || '0' <= c && c <= '9' || c == '.'
}

// AgentName returns a crawler's name without its version: the leading run
// of s made of letters, digits, '_', '-' and '.' ("MJ12bot/v1.4.8" gives
// "MJ12bot", "Googlebot/2.1" gives "Googlebot"). It is the name a manifest
// group names, and the name the 1996 draft looks up ("a case insensitive
// substring match of the name without version information").
func AgentName(s string) string { return leadingRun(s, isAgentNameChar) }

// IsAgentName reports whether s is a name a policy group may list: an RFC
// 9309 product token ([A-Za-z_-]+), or a token real crawlers use that also
// holds digits and dots (MJ12bot, AI2Bot, img2dataset, 360Spider) and at
// least one letter.
func IsAgentName(s string) bool {
	if IsProductToken(s) {
		return true
	}
	if s == "" || AgentName(s) != s {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }) >= 0
}

// GoogleReading says how Google's parser (google/robotstxt, and its ports
// such as grobotstxt) reads a User-agent line naming name, when it reads it
// as something else, or "". Google keeps only the leading [A-Za-z_-] run of
// the line's value and compares it with the crawler's name as the crawler
// gives it, so a crawler calling itself MJ12bot matches no "User-agent:
// MJ12bot" line there, and two names with the same leading letters
// (AI2Bot, Ai2Bot-Dolma) are one group to it.
func GoogleReading(name string) string {
	if name == "*" || IsProductToken(name) {
		return ""
	}
	t := ProductToken(name)
	if t == "" {
		return fmt.Sprintf("Google's parser reads only the leading letters, '_' and '-' of a User-agent line, so it reads %q as no name at all: no crawler matches this group there", name)
	}
	return fmt.Sprintf("Google's parser reads only the leading letters, '_' and '-' of a User-agent line, so it reads %q as %q: a crawler that calls itself %s matches this group there only as %s, and every other name it reads as %s shares the group", name, t, name, t, t)
}

// AgentNameError says why s cannot be a policy agent name, with the name to
// write instead when one can be seen ("Googlebot/2.1": write "Googlebot"),
// or "" when s is a valid name or "*".
func AgentNameError(s string) (msg, hint string) {
	if s == "*" || IsAgentName(s) {
		return "", ""
	}
	switch {
	case s == "":
		return "an agent name cannot be empty", ""
	case strings.ContainsAny(s, " \t"):
		msg = fmt.Sprintf("%q is not a product token: it holds a space", s)
	case strings.Contains(s, "/"):
		msg = fmt.Sprintf("%q is not a product token: '/' starts a version", s)
	case strings.Contains(s, ":"):
		msg = fmt.Sprintf("%q is not a product token: it holds ':'", s)
	default:
		msg = fmt.Sprintf("%q is not a product token (letters, '_' and '-') or a crawler's name (also digits and '.')", s)
	}
	if n := AgentName(s); IsAgentName(n) && s[len(n)] == '/' {
		hint = fmt.Sprintf("write %q: robots.txt names a crawler without its version", n)
	} else {
		hint = "a User-agent line names a crawler by one token, such as Googlebot or MJ12bot"
	}
	return msg, hint
}

// CheckedName says how the readings of File.Check cut an agent name given
// to it, or "" when both read it whole: RFC 9309 (Match) keeps the leading
// [A-Za-z_-] run, as Google's parser does for User-agent lines, and the
// 1996 reading (Match1996) the name without version.
func CheckedName(agent string) string {
	token, name := ProductToken(agent), AgentName(agent)
	switch {
	case token == agent:
		return ""
	case token == "":
		return fmt.Sprintf("agent %q: the RFC 9309 reading (Google's parser) sees no product token in it, so it matches only *; the 1996 reading looks up %q", agent, name)
	case name == agent:
		return fmt.Sprintf("agent %q: the RFC 9309 reading (Google's parser) uses only %q, its leading letters, '_' and '-' (so does a User-agent line naming it); the 1996 reading looks up %q", agent, token, name)
	}
	return fmt.Sprintf("agent %q: the RFC 9309 reading (Google's parser) uses only %q, its leading letters, '_' and '-'; the 1996 reading looks up %q", agent, token, name)
}
