package generate

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/rfc3986"
)

// The readers of this file model how each server matches a request
// against the configuration discgen writes for it: each interprets the
// generated text (nginx's server-level set and if, Apache's <If> sections
// and mod_rewrite, Caddy's matchers, header, vars and handle), over the
// request as the server sees it. They share nothing with serverconf but
// the text.

// request is one request as a client sends it.
type request struct {
	target string // path and query, raw as sent
	agent  string // the User-Agent
}

// response is what a server answers: refused (403, or 404 for a target
// the server will not serve) or served, with the headers that matter.
type response struct {
	refused bool
	usage   string // Content-Usage, "" none
	tdmRes  string // tdm-reservation, "" none
	tdmPol  string // tdm-policy, "" none
}

// decodePath percent-decodes a raw path, every escape.
func decodePath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '%' && i+2 < len(p) && rfc3986.IsHex(p[i+1]) && rfc3986.IsHex(p[i+2]) {
			b.WriteByte(rfc3986.Unhex(p[i+1])<<4 | rfc3986.Unhex(p[i+2]))
			i += 2
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// cleanPath merges "//" and resolves dot segments, as nginx, Apache
// (MergeSlashes on, the default) and Caddy do.
func cleanPath(p string) string {
	var out []string
	segs := strings.Split(p, "/")
	for i, s := range segs {
		switch {
		case i == 0:
		case s == "" && i != len(segs)-1:
		case s == ".":
			if i == len(segs)-1 {
				out = append(out, "")
			}
		case s == "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if i == len(segs)-1 {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	return "/" + strings.Join(out, "/")
}

// serverPath is the decoded, cleaned path of a raw target: nginx's $uri,
// Apache's REQUEST_URI, Caddy's path.
func serverPath(target string) string {
	p, _, _ := strings.Cut(target, "?")
	return cleanPath(decodePath(p))
}

// latin1 maps each byte to the code point of the same value, so that Go's
// regexp, which reads UTF-8, matches bytes as PCRE does without UTF mode.
func latin1(s string) string {
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return string(r)
}

// pcre compiles a PCRE pattern of the configurations (nginx, Apache) for
// Go: the subject is to be given as latin1.
func pcre(t *testing.T, re string, fold bool) *regexp.Regexp {
	t.Helper()
	if fold {
		re = "(?i)" + re
	}
	return compiled(t, re)
}

// compiledRE holds the regular expressions the readers compiled, by text.
var compiledRE = map[string]*regexp.Regexp{}

func compiled(t *testing.T, re string) *regexp.Regexp {
	t.Helper()
	if r, ok := compiledRE[re]; ok {
		return r
	}
	r, err := regexp.Compile(re)
	if err != nil {
		t.Fatalf("regular expression %q: %v", re, err)
	}
	compiledRE[re] = r
	return r
}

// nginxReader interprets the server-level statements of discgen.conf:
// set, if on a variable (~, ~*, =, or its truth), return, add_header.
type nginxReader struct {
	lines []string
}

func newNginxReader(conf []byte) nginxReader {
	var r nginxReader
	depth := 0
	for _, l := range strings.Split(string(conf), "\n") {
		l = strings.TrimSpace(l)
		if i := strings.Index(l, " # "); i >= 0 && depth == 0 && strings.HasSuffix(strings.TrimSpace(l[:i]), "}") {
			l = strings.TrimSpace(l[:i])
		}
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if depth == 0 && (strings.HasPrefix(l, "set ") || strings.HasPrefix(l, "if (") || strings.HasPrefix(l, "add_header ")) {
			r.lines = append(r.lines, l)
			continue
		}
		depth += strings.Count(l, "{") - strings.Count(l, "}")
	}
	return r
}

var (
	nginxIf  = regexp.MustCompile(`^if \((\$[a-z0-9_]+)(?: (~\*|~|=) (?:"(.*)"|(\S+)))?\) \{ (.*) \}$`)
	nginxSet = regexp.MustCompile(`^set (\$[a-z0-9_]+) (?:"(.*)"|([^\s;]+));?$`)
	nginxVar = regexp.MustCompile(`\$[a-z0-9_]+`)
)

func (r nginxReader) serve(t *testing.T, q request) response {
	path, _, _ := strings.Cut(q.target, "?")
	vars := map[string]string{"$uri": cleanPath(decodePath(path)), "$request_uri": q.target, "$http_user_agent": q.agent}
	expand := func(s string) string {
		return nginxVar.ReplaceAllStringFunc(s, func(v string) string { return vars[v] })
	}
	var resp response
	var run func(stmt string) bool // false: returned
	run = func(stmt string) bool {
		stmt = strings.TrimSpace(stmt)
		switch {
		case stmt == "":
		case strings.HasPrefix(stmt, "return 403"):
			resp.refused = true
			return false
		case nginxSet.MatchString(stmt):
			m := nginxSet.FindStringSubmatch(stmt)
			vars[m[1]] = expand(m[2] + m[3])
		case nginxIf.MatchString(stmt):
			m := nginxIf.FindStringSubmatch(stmt)
			v := vars[m[1]]
			var ok bool
			switch m[2] {
			case "":
				ok = v != "" && v != "0"
			case "=":
				ok = v == m[3]+m[4]
			default:
				ok = pcre(t, m[3], m[2] == "~*").MatchString(latin1(v))
			}
			if ok {
				for _, s := range strings.Split(m[5], ";") {
					if !run(s) {
						return false
					}
				}
			}
		case strings.HasPrefix(stmt, "add_header "):
		default:
			t.Fatalf("nginx reader: cannot read %q", stmt)
		}
		return true
	}
	for _, l := range r.lines {
		if !run(l) {
			return resp
		}
	}
	for _, l := range r.lines {
		f := strings.Fields(strings.TrimSuffix(l, ";"))
		if f[0] != "add_header" || len(f) < 3 {
			continue
		}
		v := expand(strings.Trim(f[2], `"`))
		switch f[1] {
		case "Content-Usage":
			resp.usage = v
		case "tdm-reservation":
			resp.tdmRes = v
		case "tdm-policy":
			resp.tdmPol = v
		}
	}
	return resp
}

// apacheReader interprets the .htaccess: <If> sections (conditions on
// REQUEST_URI, THE_REQUEST and REQUEST_FILENAME joined by && and ||, over
// a site where every path is a file) with mod_headers' Header set and
// unset and mod_alias' Redirect 404, run in order; and mod_rewrite's
// RewriteCond and RewriteRule chains (E= and F).
type apacheReader struct {
	lines []string
}

func newApacheReader(conf []byte) apacheReader {
	var r apacheReader
	for _, l := range strings.Split(string(conf), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			r.lines = append(r.lines, l)
		}
	}
	return r
}

var (
	apacheCond   = regexp.MustCompile(`^%\{(REQUEST_URI|THE_REQUEST|REQUEST_FILENAME)\} (?:(=~|!~) m#(.*)#|(==|!=) '(.*)')$`)
	apacheHeader = regexp.MustCompile(`^Header (always )?(set|unset) (\S+)(?: "(.*)")?$`)
	rewriteCond  = regexp.MustCompile(`^RewriteCond %\{([A-Z_:0-9]+)\} (?:"(.*)"|(\S+))( \[NC\])?$`)
)

func (r apacheReader) serve(t *testing.T, q request) response {
	path, _, _ := strings.Cut(q.target, "?")
	var resp response
	// AllowEncodedSlashes Off, the default: a path with %2F is 404, before
	// any per-directory configuration.
	if strings.Contains(strings.ToUpper(path), "%2F") {
		resp.refused = true
		return resp
	}
	uri := latin1(cleanPath(decodePath(path)))
	line := latin1("GET " + q.target + " HTTP/1.1")
	env := map[string]string{}
	headers := map[string]string{}
	var conds []bool
	active := []bool{true}
	for _, l := range r.lines {
		on := active[len(active)-1]
		switch {
		case strings.HasPrefix(l, "<If \""):
			ok := on
			for _, c := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(l, "<If \""), "\">"), " && ") {
				// (a || b): either; "! -f %{REQUEST_FILENAME}" is false
				// where every path is a file, whose name ends in the path.
				either := false
				for _, alt := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(c, "("), ")"), " || ") {
					if alt == "! -f %{REQUEST_FILENAME}" {
						continue
					}
					m := apacheCond.FindStringSubmatch(alt)
					if m == nil {
						t.Fatalf("apache reader: cannot read %q", alt)
					}
					subject := uri
					if m[1] == "THE_REQUEST" {
						subject = line
					}
					if m[2] != "" {
						either = either || pcre(t, m[3], false).MatchString(subject) == (m[2] == "=~")
					} else {
						either = either || (subject == m[5]) == (m[4] == "==")
					}
				}
				ok = ok && either
			}
			active = append(active, ok)
		case l == "</If>":
			active = active[:len(active)-1]
		case strings.HasPrefix(l, "<IfModule") || l == "</IfModule>" || !on:
		case l == "Redirect 404":
			resp.refused = true
			return resp
		case apacheHeader.MatchString(l):
			// Two tables: "Header set" (onsuccess) and "Header always
			// set"; an unset clears its own table only, and a 2xx
			// response carries both.
			m := apacheHeader.FindStringSubmatch(l)
			name := m[1] + m[3]
			if m[2] == "set" {
				headers[name] = strings.ReplaceAll(m[4], "%%", "%")
			} else {
				delete(headers, name)
			}
		case rewriteCond.MatchString(l):
			m := rewriteCond.FindStringSubmatch(l)
			pat := m[2] + m[3]
			var subject string
			switch m[1] {
			case "HTTP_USER_AGENT":
				subject = q.agent
			case "REQUEST_URI":
				subject = uri
			case "THE_REQUEST":
				subject = line
			default:
				if v, ok := strings.CutPrefix(m[1], "ENV:"); ok {
					subject = env[v]
				} else {
					t.Fatalf("apache reader: cannot read %q", l)
				}
			}
			neg := strings.HasPrefix(pat, "!")
			pat = strings.TrimPrefix(pat, "!")
			var ok bool
			if v, lex := strings.CutPrefix(pat, "="); lex {
				ok = subject == v
			} else {
				ok = pcre(t, pat, m[4] != "").MatchString(subject)
			}
			conds = append(conds, ok != neg)
		case strings.HasPrefix(l, "RewriteRule ^ - ["):
			all := true
			for _, c := range conds {
				all = all && c
			}
			conds = nil
			if !all {
				continue
			}
			flag := strings.TrimSuffix(strings.TrimPrefix(l, "RewriteRule ^ - ["), "]")
			if flag == "F" {
				resp.refused = true
				return resp
			}
			if kv, ok := strings.CutPrefix(flag, "E="); ok {
				k, v, _ := strings.Cut(kv, ":")
				env[k] = v
			}
		}
	}
	both := func(name string) string {
		var vs []string
		for _, v := range []string{headers[name], headers["always "+name]} {
			if v != "" {
				vs = append(vs, v)
			}
		}
		return strings.Join(vs, ", ")
	}
	resp.usage, resp.tdmRes, resp.tdmPol = both("Content-Usage"), both("tdm-reservation"), both("tdm-policy")
	return resp
}

// caddyReader interprets discgen.caddy: named matchers (path, path_regexp,
// vars, expression matching {http.request.orig_uri}, header_regexp
// User-Agent,
// not), header (sets in order, deletions deferred past them), vars in
// order, and handle blocks that respond 403.
type caddyReader struct {
	matchers map[string][]string // name: its matcher lines
	dirs     [][]string          // directives: the line, then a block's lines
}

func newCaddyReader(conf []byte) caddyReader {
	r := caddyReader{matchers: map[string][]string{}}
	lines := strings.Split(string(conf), "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		var block []string
		if strings.HasSuffix(l, " {") {
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "}"; i++ {
				block = append(block, strings.TrimSpace(lines[i]))
			}
			l = strings.TrimSuffix(l, " {")
		}
		if strings.HasPrefix(l, "@") {
			name, m, _ := strings.Cut(l, " ")
			if m != "" {
				block = append(block, m)
			}
			r.matchers[name] = block
			continue
		}
		r.dirs = append(r.dirs, append([]string{l}, block...))
	}
	return r
}

var caddyRegexpLine = regexp.MustCompile("^(path_regexp|header_regexp User-Agent|vars_regexp \\{http.request.header.User-Agent\\}) `(.*)`$|^(expression) `\\{http.request.orig_uri\\}.matches\\(r\"(.*)\"\\)`$")

func (r caddyReader) match(t *testing.T, name string, q request, vars map[string]string) bool {
	lines, ok := r.matchers[name]
	if !ok {
		t.Fatalf("caddy reader: no matcher %s", name)
	}
	return r.matchAll(t, lines, q, vars)
}

func (r caddyReader) matchAll(t *testing.T, lines []string, q request, vars map[string]string) bool {
	path := serverPath(q.target)
	for _, l := range lines {
		not := false
		if rest, ok := strings.CutPrefix(l, "not "); ok {
			not, l = true, rest
		}
		var ok bool
		switch {
		case caddyRegexpLine.MatchString(l):
			m := caddyRegexpLine.FindStringSubmatch(l)
			re := compiled(t, m[2]+m[4])
			subject := path
			switch {
			case m[3] == "expression": // CEL's matches: RE2 on the raw target
				subject = q.target
			case strings.HasPrefix(m[1], "header_regexp"), strings.HasPrefix(m[1], "vars_regexp"):
				subject = q.agent // one User-Agent field
			}
			ok = re.MatchString(subject)
		case strings.HasPrefix(l, "path "):
			for _, p := range strings.Fields(l)[1:] {
				ok = ok || strings.EqualFold(path, p)
			}
		case strings.HasPrefix(l, "vars "):
			f := strings.Fields(l)
			ok = vars[f[1]] == f[2]
		default:
			t.Fatalf("caddy reader: cannot read matcher %q", l)
		}
		if ok == not {
			return false
		}
	}
	return true
}

func (r caddyReader) serve(t *testing.T, q request) response {
	vars := map[string]string{}
	headers := map[string]string{}
	var deletes []string
	var resp response
	applies := func(f []string) ([]string, bool) {
		if len(f) > 1 && strings.HasPrefix(f[1], "@") {
			return append(f[:1:1], f[2:]...), r.match(t, f[1], q, vars)
		}
		return f, true
	}
	for _, d := range r.dirs {
		f := strings.Fields(d[0])
		switch f[0] {
		case "vars":
			if f, ok := applies(f); ok {
				vars[f[1]] = f[2]
			}
		}
	}
	for _, d := range r.dirs {
		f := strings.Fields(d[0])
		if f[0] == "handle" {
			// Only a refusal is read: another handle block (discgen's
			// for /.well-known/ paths) serves the file every path is.
			if !strings.Contains(strings.Join(d[1:], "\n"), "respond 403") {
				continue
			}
			if _, ok := applies(f); ok {
				resp.refused = true
				return resp
			}
		}
	}
	for _, d := range r.dirs {
		f := strings.Fields(d[0])
		if f[0] != "header" {
			continue
		}
		f, ok := applies(f)
		if !ok {
			continue
		}
		ops := d[1:]
		if len(f) > 1 {
			ops = []string{strings.Join(f[1:], " ")}
		}
		for _, op := range ops {
			name, val, _ := strings.Cut(op, " ")
			if n, ok := strings.CutPrefix(name, "-"); ok {
				deletes = append(deletes, n)
				continue
			}
			if v, err := strconv.Unquote(val); err == nil {
				val = v
			}
			headers[name] = val
		}
	}
	for _, n := range deletes {
		delete(headers, n)
	}
	both := func(name string) string {
		var vs []string
		for _, v := range []string{headers[name], headers["always "+name]} {
			if v != "" {
				vs = append(vs, v)
			}
		}
		return strings.Join(vs, ", ")
	}
	resp.usage, resp.tdmRes, resp.tdmPol = both("Content-Usage"), both("tdm-reservation"), both("tdm-policy")
	return resp
}

func (r response) String() string {
	if r.refused {
		return "refused"
	}
	return fmt.Sprintf("Content-Usage %q, tdm-reservation %q, tdm-policy %q", r.usage, r.tdmRes, r.tdmPol)
}
