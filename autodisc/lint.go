package autodisc

import (
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/pathspace"
)

// FeedExtensions returns the file name extensions common to feed formats,
// sorted; a feed whose path ends otherwise should be given a type (seed 000
// section 4.6). The list is the caller's to change.
func FeedExtensions() []string { return slices.Clone(feedExtensions[:]) }

var feedExtensions = [...]string{".atom", ".json", ".rdf", ".rss", ".xml"}

// HasFeedExtension reports whether the URL path p ends with a feed
// extension.
func HasFeedExtension(p string) bool {
	return slices.Contains(feedExtensions[:], strings.ToLower(path.Ext(p)))
}

// MaxDescription is the length past which description.txt draws a warning
// (seed 000 section 4.5: "SHOULD be no more than 80 characters").
const MaxDescription = 80

// Lint codes, stable: tools may match on them.
const (
	CodeNotUTF8       = "A001" // the file is not UTF-8 (section 4: MUST)
	CodeMultiLine     = "A002" // description.txt holds more than one line
	CodeLongDesc      = "A003" // description over 80 characters
	CodeNotURI        = "A004" // an icons.txt or feeds.txt line is not a URI
	CodeBadType       = "A005" // a feeds.txt "[type]" that is not closed or empty
	CodeNeedsType     = "A006" // a feed without a feed extension has no type
	CodeBadName       = "A007" // index.txt names something that cannot be a file
	CodeDuplicate     = "A008" // a line given twice
	CodeSubdirectory  = "A009" // a subdirectories.txt line a consumer ignores
	CodeIndexSelf     = "A010" // index.txt lists itself
	CodeUnknownFormat = "A011" // not an autodisc file this linter knows
)

// Lint checks an existing autodisc file, chosen by its name (index.txt,
// subdirectories.txt, icons.txt, description.txt, feeds.txt), against seed
// 000 section 4. Diagnostics carry a line and a code but no file name,
// which the caller sets. A subdirectories.txt is read as the root's.
func Lint(name string, data []byte) []diag.Diagnostic {
	var out diag.List
	add := out.Linef
	if !utf8.Valid(data) {
		add(diag.Error, 0, CodeNotUTF8, "not UTF-8; autodisc files must be (seed 000 section 4)")
		return out
	}
	seen := map[string]int{}
	dup := func(n int, line string) bool {
		if first, ok := seen[line]; ok {
			add(diag.Warning, n, CodeDuplicate, "%q is also on line %d", line, first)
			return true
		}
		seen[line] = n
		return false
	}
	switch name {
	case "description.txt":
		lines := 0
		for n, line := range Lines(data) {
			if line == "" {
				continue
			}
			if lines++; lines == 2 {
				add(diag.Error, n, CodeMultiLine, "description.txt holds a single line (seed 000 section 4.5); readers may show only the first")
			}
			if c := utf8.RuneCountInString(line); c > MaxDescription {
				add(diag.Warning, n, CodeLongDesc, "description is %d characters; seed 000 asks for at most %d", c, MaxDescription)
			}
		}
	case "icons.txt":
		for n, line := range Lines(data) {
			if line != "" && !dup(n, line) {
				lintURI(add, n, line, "icon")
			}
		}
	case "feeds.txt":
		for n, line := range Lines(data) {
			if line == "" || dup(n, line) {
				continue
			}
			uri, typ := line, ""
			if strings.HasPrefix(line, "[") {
				end := strings.IndexByte(line, ']')
				if end < 0 || strings.TrimSpace(line[1:end]) == "" {
					add(diag.Error, n, CodeBadType, "%q: a type in brackets must be closed and not empty, as in [application/rss+xml] URI", line)
					continue
				}
				typ, uri = line[1:end], strings.TrimSpace(line[end+1:])
			}
			if u := lintURI(add, n, uri, "feed"); u != nil && typ == "" && !HasFeedExtension(u.Path) {
				add(diag.Warning, n, CodeNeedsType, "feed %q has no feed extension (%s); give its type, as in [application/rss+xml] %s", uri, strings.Join(feedExtensions[:], " "), uri)
			}
		}
	case "index.txt":
		for n, line := range Lines(data) {
			switch {
			case line == "" || dup(n, line):
			case !ValidName(line):
				add(diag.Error, n, CodeBadName, "%q cannot be a file name in an autodisc directory", line)
			case line == "index.txt":
				add(diag.Warning, n, CodeIndexSelf, "index.txt lists the other files of its directory (seed 000 section 4.1), not itself")
			}
		}
	case "subdirectories.txt":
		_, problems := ParseSubdirectories(pathspace.Root(), data)
		for _, p := range problems {
			add(diag.Error, p.Line, CodeSubdirectory, "%s", p.Message)
		}
	default:
		add(diag.Error, 0, CodeUnknownFormat, "%s is not an autodisc file discgen knows (index.txt, subdirectories.txt, icons.txt, description.txt, feeds.txt)", name)
	}
	return out
}

// lintURI checks that s is a URI reference a consumer can fetch: one
// token, parseable, and http(s) when absolute.
func lintURI(add func(diag.Severity, int, string, string, ...any), n int, s, what string) *url.URL {
	u, err := url.Parse(s)
	switch {
	case strings.ContainsAny(s, " \t"):
		add(diag.Error, n, CodeNotURI, "%q: a %s URI is one token, without white space", s, what)
	case err != nil:
		add(diag.Error, n, CodeNotURI, "%q is not a URI", s)
	case u.IsAbs() && u.Scheme != "http" && u.Scheme != "https":
		add(diag.Error, n, CodeNotURI, "%q: an absolute %s URI must be http or https", s, what)
	default:
		return u
	}
	return nil
}
