package robots

import (
	"bytes"
	"strings"

	"github.com/discgen/discgen/diag"
)

// MaxLineLen is the number of bytes of a line that Parse reads; the rest of
// a longer line is dropped. google/robotstxt reads lines into a buffer of
// 2083*8 bytes (eight times the longest URL some browsers accept) and keeps
// one byte for the terminating NUL, so a line keeps 16663 bytes
// (robots_test.cc, GoogleOnly_LineTooLong).
const MaxLineLen = 2083*8 - 1

// Kind says what a line of a robots.txt file is.
type Kind int

const (
	KindUserAgent Kind = iota + 1
	KindAllow
	KindDisallow
	KindSitemap
	KindCrawlDelay
	KindHost
	KindMobileAgentServer
	KindExtension // any other field: kept with its group
)

var kindNames = [...]string{
	KindUserAgent:         "User-agent",
	KindAllow:             "Allow",
	KindDisallow:          "Disallow",
	KindSitemap:           "Sitemap",
	KindCrawlDelay:        "Crawl-delay",
	KindHost:              "Host",
	KindMobileAgentServer: "Mobile-agent-server",
	KindExtension:         "extension",
}

func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Line is one field line of a file: "Key: Value", comment removed.
type Line struct {
	Num   int    // 1-based line number
	Kind  Kind   // what the key was read as
	Key   string // the key as written
	Value string // the value as written, trimmed
}

// Agent is a User-agent line of a group.
type Agent struct {
	Line
	// Token is the product token RFC 9309 matching uses: the leading
	// [A-Za-z_-] run of the value. Empty for "*".
	Token string
	// Global is set for "*" (and, as Google reads it, "*" followed by a
	// space and anything).
	Global bool
}

// Rule is an Allow or Disallow line.
type Rule struct {
	Line
	Allow bool
	// Pattern is the value as RFC 9309 matching compares it: non-ASCII
	// octets percent-encoded, escape hex digits upper-cased.
	Pattern string
}

// String returns the rule as a robots.txt line, "Allow: /x" or "Disallow: /".
func (r Rule) String() string {
	if r.Allow {
		return "Allow: " + r.Value
	}
	return "Disallow: " + r.Value
}

// Group is one or more User-agent lines and the lines that follow them up to
// the next User-agent line that comes after a rule.
type Group struct {
	Agents []Agent
	Rules  []Rule
	// Other holds the group's Crawl-delay and extension lines in order.
	Other []Line
}

// File is a parsed robots.txt file.
type File struct {
	Groups []Group
	// Orphans are rules and group-member lines before any User-agent line;
	// every reader ignores them.
	Orphans []Line
	// Sitemaps, Hosts and MobileAgents are the file-level lines, in order.
	Sitemaps     []Line
	Hosts        []Line
	MobileAgents []Line
	// Findings are what the parser accepted but a careful author would fix.
	Findings []Finding
	// Lines is the number of lines read.
	Lines int
	// Cut is the line Parse stopped at, the first past MaxLines lines that
	// hold something; 0 when it read the whole file.
	Cut int
	// More counts, for each code, the findings past the MaxListed that
	// Findings holds, with the line of the first of them.
	More map[string]Unlisted
}

// Unlisted is how many findings of a code were not kept, and the line of
// the first of them.
type Unlisted struct{ N, Line int }

// MaxLines bounds the lines Parse reads that hold something (a field, or
// text without a key); blank and comment lines are not counted. What a
// parse keeps grows with these lines, some 60 bytes each and more for
// those that draw a finding: 11 million lines "a:" fit in the 32 MiB
// that lint and check read, and held 600 MB. Half a million is more than
// twice what a manifest can build (200,000 rule lines and 5,000 agents),
// and fifty times the lines a crawler reads in 500 KiB of rules.
const MaxLines = 500_000

// Parse reads a robots.txt file. It never fails: lines it cannot read are
// skipped, as google/robotstxt skips them. It stops after MaxLines lines
// that hold something, and File.Cut says where; a caller that reads a
// file it did not build tells its user so.
func Parse(data []byte) *File { return parse(data, MaxLines) }

// parse is Parse reading at most limit lines that hold something.
func parse(data []byte, limit int) *File {
	f := &File{}
	// Room for a rule per 32 bytes (a rule line is rarely shorter) at
	// first, so that a large file's rules rarely move.
	p := parser{f: f, rules: make([]Rule, 0, min(max(len(data)/32, 16), limit+1)), max: limit}
	// One conversion: every Line value is a substring of text.
	text := string(skipBOM(data))
	num := 0
	// lf is the offset in text of the next '\n', -1 when there is none: a
	// line ends at the first '\r' before it, or at it. (IndexAny with
	// both bytes cost a tenth of a parse; IndexByte looks at many bytes
	// at once.) It is found again only once passed, so that a file whose
	// lines end in '\r' alone is read once, not once per line.
	lf := strings.IndexByte(text, '\n')
	for {
		num++
		end := lf
		if end < 0 {
			end = len(text)
		}
		i := strings.IndexByte(text[:end], '\r')
		if i < 0 {
			i = lf
		}
		if i < 0 {
			// The text after the last line end is a line, even when empty.
			p.line(num, text)
			break
		}
		if p.line(num, text[:i]); f.Cut > 0 {
			break
		}
		if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			i++
		}
		text = text[i+1:]
		if lf >= 0 {
			if lf -= i + 1; lf < 0 {
				lf = strings.IndexByte(text, '\n')
			}
		}
	}
	p.closeGroup()
	f.Lines = num
	return f
}

// skipBOM drops a UTF-8 byte order mark, or the leading part of one, as
// google/robotstxt does (robots_test.cc, ID_UTF8ByteOrderMarkIsSkipped).
func skipBOM(data []byte) []byte {
	bom := []byte{0xEF, 0xBB, 0xBF}
	n := 0
	for n < len(bom) && n < len(data) && data[n] == bom[n] {
		n++
	}
	return data[n:]
}

type parser struct {
	f *File
	// rules holds the rules of the open group from index first on (and,
	// before first, earlier groups' rules, which their Rules slices
	// share). A group's rules are consecutive lines, so one array serves
	// many groups; appending to each group's own slice reallocated every
	// large group many times (a parse of a 2.5 MB file allocated 45 MB).
	rules []Rule
	first int
	// cur is the index of the open group, -1 before the first User-agent.
	cur     int
	started bool
	// sawRule is set once the open group has an Allow or Disallow line, so
	// that the next User-agent line starts a new group.
	sawRule bool
	// blank is the number of a blank line met after a User-agent line of
	// the open group and before any other line; 0 when none.
	blank int
	// n counts the lines read that hold something, up to max.
	n, max int
	// listed counts the findings of each code.
	listed map[string]int
}

// finding keeps fd, or counts it past MaxListed of its code.
func (p *parser) finding(fd Finding) {
	if p.listed == nil {
		p.listed = map[string]int{}
	}
	if p.listed[fd.Code]++; p.listed[fd.Code] <= MaxListed {
		p.f.Findings = append(p.f.Findings, fd)
		return
	}
	if p.f.More == nil {
		p.f.More = map[string]Unlisted{}
	}
	u, ok := p.f.More[fd.Code]
	if !ok {
		u.Line = fd.Line
	}
	u.N++
	u.Line = min(u.Line, fd.Line)
	p.f.More[fd.Code] = u
}

func (p *parser) line(num int, raw string) {
	if !p.started {
		p.cur, p.started = -1, true
	}
	long := len(raw) > MaxLineLen
	if long {
		raw = raw[:MaxLineLen]
	}
	key, value, noColon, ok := splitLine(raw)
	if ok || !isBlankOrComment(raw) {
		if p.n == p.max {
			p.f.Cut = num
			return
		}
		p.n++
	}
	if long {
		p.finding(Finding{Code: CodeLineTooLong, Severity: diag.Warning, Line: num,
			Message: "line is longer than 16663 bytes; the rest is ignored, as Google ignores it"})
	}
	if trimSpace(raw) == "" {
		if p.cur >= 0 && !p.sawRule && p.blank == 0 {
			p.blank = num
		}
		return
	}
	blank := p.blank
	p.blank = 0
	if !ok {
		if !isBlankOrComment(raw) {
			p.finding(Finding{Code: CodeUnreadable, Severity: diag.Warning, Line: num,
				Message: "line has no \"key: value\" form and is ignored"})
		}
		return
	}
	var kind Kind
	var canonical string
	switch key {
	// The usual spellings, read without comparing against every key
	// Google accepts; their canonical name is the key itself.
	case "Allow", "allow":
		kind = KindAllow
	case "Disallow", "disallow":
		kind = KindDisallow
	case "User-agent", "user-agent", "User-Agent":
		kind = KindUserAgent
	default:
		kind, canonical = keyKind(key)
	}
	l := Line{Num: num, Kind: kind, Key: key, Value: value}
	if noColon && kind != KindExtension {
		p.finding(Finding{Code: CodeNoColon, Severity: diag.Warning, Line: num,
			Message: "missing ':' after " + key + "; read as " + kind.String()})
	}
	if canonical != "" && !strings.EqualFold(key, canonical) {
		p.finding(Finding{Code: CodeTypo, Severity: diag.Warning, Line: num,
			Message: "\"" + key + "\" read as " + canonical})
	}
	switch kind {
	case KindUserAgent:
		if blank > 0 && p.cur >= 0 && !p.sawRule {
			p.finding(Finding{Code: CodeBlankInAgents, Severity: diag.Warning, Line: blank,
				Message: "blank line inside a run of User-agent lines: Google's parser and RFC 9309 join the lines before and after it into one group; readers that end a record at a blank line (the 1996 draft, Python's urllib.robotparser) give the agents before it no rules"})
		}
		if p.cur < 0 || p.sawRule {
			p.closeGroup()
			p.f.Groups = append(p.f.Groups, Group{})
			p.cur = len(p.f.Groups) - 1
			p.sawRule = false
			p.first = len(p.rules)
		}
		a := Agent{Line: l}
		if value == "*" || strings.HasPrefix(value, "*") && len(value) > 1 && isSpace(value[1]) {
			a.Global = true
		} else {
			a.Token = ProductToken(value)
		}
		g := &p.f.Groups[p.cur]
		g.Agents = append(g.Agents, a)
	case KindAllow, KindDisallow:
		if p.cur < 0 {
			p.orphan(l)
			return
		}
		p.sawRule = true
		if len(p.rules) == cap(p.rules) {
			// Earlier groups keep the old array; the open group's rules
			// move to a new one.
			open := p.rules[p.first:]
			p.rules = append(make([]Rule, 0, max(2*len(open), 256)), open...)
			p.first = 0
		}
		p.rules = append(p.rules, Rule{Line: l, Allow: kind == KindAllow,
			Pattern: escapePattern(value)})
		p.f.Groups[p.cur].Rules = p.rules[p.first:]
	case KindSitemap:
		p.f.Sitemaps = append(p.f.Sitemaps, l)
	case KindHost:
		p.f.Hosts = append(p.f.Hosts, l)
	case KindMobileAgentServer:
		p.f.MobileAgents = append(p.f.MobileAgents, l)
	default: // Crawl-delay and extensions belong to the open group.
		if p.cur < 0 {
			p.orphan(l)
			return
		}
		g := &p.f.Groups[p.cur]
		g.Other = append(g.Other, l)
	}
}

// closeGroup ends the open group's rules at their length, so that an
// append to them cannot write over the next group's.
func (p *parser) closeGroup() {
	if p.cur >= 0 {
		g := &p.f.Groups[p.cur]
		g.Rules = g.Rules[:len(g.Rules):len(g.Rules)]
	}
}

func (p *parser) orphan(l Line) {
	p.f.Orphans = append(p.f.Orphans, l)
	if l.Kind == KindAllow || l.Kind == KindDisallow || l.Kind == KindCrawlDelay {
		p.finding(Finding{Code: CodeOutsideGroup, Severity: diag.Warning, Line: l.Num,
			Message: l.Kind.String() + " before any User-agent line is ignored"})
	}
}

func isBlankOrComment(raw string) bool {
	if i := strings.IndexByte(raw, '#'); i >= 0 {
		raw = raw[:i]
	}
	return trimSpace(raw) == ""
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// splitLine splits a line into key and value the way google/robotstxt does:
// the comment is cut at the first '#', the key ends at the first ':', and a
// line without a colon is still read when it is exactly two words separated
// by spaces or tabs ("disallow /").
func splitLine(s string) (key, value string, noColon, ok bool) {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	s = trimSpace(s)
	sep := strings.IndexByte(s, ':')
	if sep < 0 {
		sep = strings.IndexAny(s, " \t")
		if sep < 0 {
			return "", "", false, false
		}
		rest := strings.TrimLeft(s[sep:], " \t")
		if strings.ContainsAny(rest, " \t") {
			return "", "", false, false
		}
		noColon = true
	}
	key = trimSpace(s[:sep])
	if key == "" {
		return "", "", false, false
	}
	return key, trimSpace(s[sep+1:]), noColon, true
}

// keyKind reads a key. Like google/robotstxt it accepts any key that starts
// with a known name or one of the misspellings Google accepts; canonical is
// the name the key was read as, for a finding when the key differs.
func keyKind(key string) (kind Kind, canonical string) {
	for _, k := range acceptedKeys {
		if len(key) >= len(k.prefix) && strings.EqualFold(key[:len(k.prefix)], k.prefix) {
			return k.kind, k.kind.String()
		}
	}
	switch {
	case strings.EqualFold(key, "crawl-delay"):
		return KindCrawlDelay, ""
	case strings.EqualFold(key, "host"):
		return KindHost, ""
	case strings.EqualFold(key, "mobile-agent-server"):
		return KindMobileAgentServer, ""
	}
	return KindExtension, ""
}

// FieldKind says what crawlers read a line whose key is key as: like
// google/robotstxt, any key that starts with a known name or one of the
// misspellings Google accepts ("Disallowed", "Dissallow", "Sitemaps") is
// that field; KindExtension for any other.
func FieldKind(key string) Kind {
	switch key { // the usual spellings, without trying each accepted key
	case "Disallow", "disallow":
		return KindDisallow
	case "Allow", "allow":
		return KindAllow
	case "User-agent", "user-agent", "User-Agent":
		return KindUserAgent
	}
	k, _ := keyKind(key)
	return k
}

// acceptedKeys are the key prefixes google/robotstxt reads (robots.cc,
// ParsedRobotsKey), in the order it tries them.
var acceptedKeys = []struct {
	prefix string
	kind   Kind
}{
	{"user-agent", KindUserAgent},
	{"useragent", KindUserAgent},
	{"user agent", KindUserAgent},
	{"allow", KindAllow},
	{"disallow", KindDisallow},
	{"dissallow", KindDisallow},
	{"dissalow", KindDisallow},
	{"disalow", KindDisallow},
	{"diasllow", KindDisallow},
	{"disallaw", KindDisallow},
	{"sitemap", KindSitemap},
	{"site-map", KindSitemap},
}

// Cost is about the most memory a parse of data, reading up to max lines
// that hold something (MaxLines for Parse, MaxLintLines for Lint), and a
// check or a lint over it hold at once: the data and its text; some 250
// bytes for each line up to max (a line kept, and the slices that hold
// the lines while they grow); and 16 MiB for the rest. A caller compares
// it with what the host's limits leave (hostlimits.Limits.Fit, which
// asks half as much again for the runtime) before it parses. Measured
// under RLIMIT_AS: 381,000 extension lines, 4 MiB, died with 80 to 96 MB
// in use where 127 MiB were left; lint of 32 MiB of lines "a:" needed
// 140 MiB.
func Cost(data []byte, max int) int64 {
	lines := bytes.Count(data, []byte{'\n'}) + bytes.Count(data, []byte{'\r'}) + 1
	return ReadCost(int64(len(data))) + 250*int64(min(lines, max))
}

// ReadCost is the part of Cost known from the file's size alone, for a
// caller to compare before it reads the file: under 760 MiB of address
// space the read of 32 MiB died.
func ReadCost(size int64) int64 { return 2*size + 16<<20 }
