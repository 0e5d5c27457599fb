package autodisc

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/discgen/discgen/diag"
)

func hasWarning(r *Result, file string, line int, code string) bool {
	return slices.ContainsFunc(r.Warnings, func(w diag.Diagnostic) bool {
		return w.File == file && w.Line == line && w.Code == code
	})
}

func TestOnlyAndExcept(t *testing.T) {
	base := site{
		"autodisc/robots.txt":        "r",
		"autodisc/description.txt":   "d",
		"autodisc/icons.txt":         "i",
		"autodisc/x-a.txt":           "a",
		"a/autodisc/robots.txt":      "r",
		"a/autodisc/description.txt": "d",
		"a/autodisc/icons.txt":       "i",
		"a/autodisc/x-a.txt":         "a",
	}
	tests := []struct {
		line  string
		files map[string]string
		// files of a/autodisc that are ignored
		ignored []string
	}{
		{"a", map[string]string{"robots.txt": "/a/", "description.txt": "/a/", "icons.txt": "/a/", "x-a.txt": "/a/"}, nil},
		{"a robots.txt x-a.txt", map[string]string{
			"robots.txt": "/a/", "x-a.txt": "/a/",
			"description.txt": "undefined (not delegated: only-list of /)",
			"icons.txt":       "undefined (not delegated: only-list of /)",
		}, []string{"description.txt", "icons.txt"}},
		{"/a/ - robots.txt icons.txt", map[string]string{
			"robots.txt": "/ (excepted by /)", "icons.txt": "/ (excepted by /)",
			"description.txt": "/a/", "x-a.txt": "/a/",
		}, []string{"icons.txt", "robots.txt"}},
		// An except-list of nothing delegates every file.
		{"a/ -", map[string]string{"robots.txt": "/a/", "icons.txt": "/a/"}, nil},
		// An only-list of a file the delegatee lacks: undefined, not the
		// delegator's.
		{"a x-b.txt", map[string]string{
			"x-b.txt":    "undefined (/a/ has no x-b.txt)",
			"robots.txt": "undefined (not delegated: only-list of /)",
		}, []string{"description.txt", "icons.txt", "robots.txt", "x-a.txt"}},
		// An excepted file the delegator lacks is undefined.
		{"a - x-c.txt", map[string]string{"x-c.txt": "undefined (excepted by /; / has no x-c.txt)"}, nil},
	}
	for _, tt := range tests {
		s := clone(base)
		s["autodisc/subdirectories.txt"] = tt.line + "\n"
		r := resolve(t, s.fs(), "/a/b")
		if chainOf(r) != "/=autodisc /a/=a/autodisc" {
			t.Errorf("%q: chain %q", tt.line, chainOf(r))
			continue
		}
		checkFiles(t, r, tt.files)
		var ignored []string
		for _, w := range r.Warnings {
			if w.Code == CodeIgnored {
				ignored = append(ignored, path.Base(w.File))
			}
		}
		if !slices.Equal(ignored, tt.ignored) {
			t.Errorf("%q: ignored %q, want %q", tt.line, ignored, tt.ignored)
		}
	}
}

func clone(s site) site {
	out := site{}
	for k, v := range s {
		out[k] = v
	}
	return out
}

// subdirectories.txt is delegated even by an only-list that leaves it out,
// and a delegatee can hand over only what it holds.
func TestSubdirectoriesAlwaysDelegated(t *testing.T) {
	s := site{
		"autodisc/robots.txt":             "r",
		"autodisc/feeds.txt":              "f",
		"autodisc/subdirectories.txt":     "a feeds.txt\n",
		"a/autodisc/feeds.txt":            "f",
		"a/autodisc/subdirectories.txt":   "b feeds.txt\nc robots.txt\n",
		"a/b/autodisc/feeds.txt":          "f",
		"a/c/autodisc/robots.txt":         "r",
		"a/c/autodisc/subdirectories.txt": "d\n",
	}
	r := resolve(t, s.fs(), "/a/b/x")
	if chainOf(r) != "/=autodisc /a/=a/autodisc /a/b/=a/b/autodisc" {
		t.Errorf("chain %q", chainOf(r))
	}
	checkFiles(t, r, map[string]string{"feeds.txt": "/a/b/", "robots.txt": "undefined (not delegated: only-list of /a/)"})
	if !hasWarning(r, "a/autodisc/subdirectories.txt", 2, CodeGrant) {
		t.Errorf("no warning for robots.txt, which /a/ does not hold: %q", warningsOf(r))
	}

	// /a/ names robots.txt in c's only-list but does not hold it: c
	// gets nothing but subdirectories.txt, and its robots.txt is ignored.
	r = resolve(t, s.fs(), "/a/c/d/x")
	if chainOf(r) != "/=autodisc /a/=a/autodisc /a/c/=a/c/autodisc /a/c/d/=a/c/d/autodisc!" {
		t.Errorf("chain %q", chainOf(r))
	}
	checkFiles(t, r, map[string]string{
		"robots.txt":         "undefined (not delegated: only-list of /)",
		"subdirectories.txt": "undefined (/a/c/d/ is not read: not found)",
	})
	if got := r.Chain[2].Granted.String(); got != "subdirectories.txt" {
		t.Errorf("/a/c/ is granted %s", got)
	}
	if !hasWarning(r, "a/c/autodisc/robots.txt", 0, CodeIgnored) {
		t.Errorf("c's robots.txt not reported ignored: %q", warningsOf(r))
	}
	// An except-list cannot hold back subdirectories.txt.
	s["autodisc/subdirectories.txt"] = "a - subdirectories.txt\n"
	r = resolve(t, s.fs(), "/a/b/x")
	if len(r.Chain) != 3 || !hasWarning(r, "autodisc/subdirectories.txt", 1, CodeGrant) {
		t.Errorf("chain %q, warnings %q", chainOf(r), warningsOf(r))
	}
}

func TestIndex(t *testing.T) {
	s := site{
		"autodisc/index.txt":          "robots.txt\r\nfeeds.txt\r\n../etc/passwd\r\nsubdirectories.txt\r\n",
		"autodisc/robots.txt":         "r",
		"autodisc/icons.txt":          "not listed",
		"autodisc/subdirectories.txt": "a\n",
		"autodisc/.hidden":            "h",
		"a/autodisc/description.txt":  "d",
	}
	r := resolve(t, s.fs(), "/x")
	checkFiles(t, r, map[string]string{
		"robots.txt": "/",
		"icons.txt":  "undefined (/'s icons.txt is ignored: not listed in index.txt)",
		"feeds.txt":  "undefined (/'s feeds.txt is ignored: listed in index.txt but missing)",
	})
	for _, w := range []struct {
		file string
		line int
		code string
	}{
		{"autodisc/index.txt", 3, CodeName},
		{"autodisc/index.txt", 0, CodeMissing},
		{"autodisc/icons.txt", 0, CodeUnlisted},
	} {
		if !hasWarning(r, w.file, w.line, w.code) {
			t.Errorf("no %s warning at %s:%d: %q", w.code, w.file, w.line, warningsOf(r))
		}
	}
	if len(r.Warnings) != 3 {
		t.Errorf("warnings %q", warningsOf(r))
	}

	// Without index.txt, the files present are held.
	s["autodisc/index.txt"] = ""
	fsys := s.fs()
	delete(fsys, "autodisc/index.txt")
	r = resolve(t, fsys, "/x")
	checkFiles(t, r, map[string]string{"robots.txt": "/", "icons.txt": "/", "feeds.txt": "undefined (/ has no feeds.txt)"})
	if len(r.Warnings) != 0 {
		t.Errorf("warnings %q", warningsOf(r))
	}

	// A subdirectories.txt that index.txt leaves out is not read.
	s["autodisc/index.txt"] = "robots.txt\n"
	r = resolve(t, s.fs(), "/a/x")
	if chainOf(r) != "/=autodisc" || !hasWarning(r, "autodisc/subdirectories.txt", 0, CodeUnlisted) {
		t.Errorf("chain %q, warnings %q", chainOf(r), warningsOf(r))
	}
}

func TestEscapesIgnored(t *testing.T) {
	s := site{
		"autodisc/subdirectories.txt":        "../etc\n%2e%2e/etc\n/a/%2E./b\nx\\y\na//b\n.\n%2F\n~*\n",
		"autodisc/description.txt":           "root",
		"~alice/autodisc/subdirectories.txt": "../~bob/ description.txt\n%2e%2e/~bob\n%2e%2E\n..\n",
		"~alice/autodisc/description.txt":    "alice",
		"~bob/autodisc/description.txt":      "bob",
		"etc/autodisc/description.txt":       "etc",
	}
	fsys := s.fs()
	r := resolve(t, fsys, "/~alice/x")
	if chainOf(r) != "/=autodisc /~alice/=~alice/autodisc" {
		t.Errorf("chain %q", chainOf(r))
	}
	checkFiles(t, r, map[string]string{"description.txt": "/~alice/"})
	var lines []string
	for _, w := range r.Warnings {
		if w.Code == CodeDelegation {
			lines = append(lines, path.Dir(path.Dir(w.File))+":"+string(rune('0'+w.Line)))
		}
	}
	want := []string{".:1", ".:2", ".:3", ".:4", ".:5", ".:6", ".:7", "~alice:1", "~alice:2", "~alice:3", "~alice:4"}
	if !slices.Equal(lines, want) {
		t.Errorf("refused lines %q, want %q", lines, want)
	}
	for _, w := range r.Warnings {
		if w.Code == CodeDelegation && !strings.HasSuffix(w.Message, "line ignored") {
			t.Errorf("message %q", w.Message)
		}
	}
	// The escape never reaches etc/ or ~bob/ through those lines.
	for _, p := range []string{"/etc/x", "/../etc/x"} {
		if r := resolve(t, fsys, p); chainOf(r) != "/=autodisc" {
			t.Errorf("%s: chain %q", p, chainOf(r))
		}
	}
	r = resolve(t, fsys, "/~alice/../~bob/x")
	if chainOf(r) != "/=autodisc /~bob/=~bob/autodisc" {
		t.Errorf("chain %q", chainOf(r))
	}
}

// A path segment a wildcard takes must name one directory once decoded.
func TestInstanceDirectories(t *testing.T) {
	s := site{
		"autodisc/subdirectories.txt":        "~*\ncaf%C3%A9\n",
		"~alice/autodisc/description.txt":    "alice",
		"~a/b/autodisc/description.txt":      "not alice",
		"café/autodisc/description.txt":      "café",
		"~a\\b/autodisc/description.txt":     "backslash",
		"~a\xffb/autodisc/description.txt":   "not UTF-8",
		"~a\u0085b/autodisc/description.txt": "C1 control",
		"autodisc/description.txt":           "root",
	}
	fsys := s.fs()
	for _, tt := range []struct{ path, chain, desc string }{
		{"/~alice/x", "/=autodisc /~alice/=~alice/autodisc", "/~alice/"},
		{"/~al%69ce/x", "/=autodisc /~alice/=~alice/autodisc", "/~alice/"},
		{"/caf%c3%a9/x", "/=autodisc /caf%C3%A9/=café/autodisc", "/caf%C3%A9/"},
		{"/café/", "/=autodisc /caf%C3%A9/=café/autodisc", "/caf%C3%A9/"},
		{"/~a%2Fb/x", "/=autodisc /~*/=!", "undefined"},
		{"/~a%5Cb/x", "/=autodisc /~*/=!", "undefined"},
		{"/~a%00b/x", "/=autodisc /~*/=!", "undefined"},
		{"/~a%FFb/x", "/=autodisc /~*/=!", "undefined"},    // not UTF-8 once decoded
		{"/~a%C2%85b/x", "/=autodisc /~*/=!", "undefined"}, // U+0085, a C1 control
		{"/~/x", "/=autodisc /~/=~/autodisc!", "undefined"},
	} {
		r := resolve(t, fsys, tt.path)
		if chainOf(r) != tt.chain {
			t.Errorf("%s: chain %q, want %q", tt.path, chainOf(r), tt.chain)
		}
		got := "undefined"
		for _, f := range r.Files {
			if f.Name == "description.txt" && f.Defined {
				got = r.Chain[f.Level].Space.String()
			}
		}
		if got != tt.desc {
			t.Errorf("%s: description.txt from %s, want %s", tt.path, got, tt.desc)
		}
		if tt.desc == "undefined" && !hasWarning(r, "autodisc/subdirectories.txt", 1, CodeNoDir) {
			t.Errorf("%s: warnings %q", tt.path, warningsOf(r))
		}
	}
}

func TestOverlapFollowsFirst(t *testing.T) {
	s := site{
		"autodisc/subdirectories.txt":     "~alice/blog robots.txt\nx\n~* description.txt\n",
		"autodisc/robots.txt":             "r",
		"autodisc/description.txt":        "d",
		"~alice/blog/autodisc/robots.txt": "r",
		"~alice/autodisc/description.txt": "d",
	}
	r := resolve(t, s.fs(), "/~alice/blog/x")
	if chainOf(r) != "/=autodisc /~alice/blog/=~alice/blog/autodisc" {
		t.Errorf("chain %q", chainOf(r))
	}
	if !hasWarning(r, "autodisc/subdirectories.txt", 3, CodeOverlap) || hasWarning(r, "autodisc/subdirectories.txt", 2, CodeOverlap) {
		t.Errorf("warnings %q", warningsOf(r))
	}
	r = resolve(t, s.fs(), "/~alice/x")
	if chainOf(r) != "/=autodisc /~alice/=~alice/autodisc" || len(r.Warnings) != 1 || r.Warnings[0].Line != 1 {
		t.Errorf("chain %q, warnings %q", chainOf(r), warningsOf(r))
	}
}

func TestLineEnds(t *testing.T) {
	lf := threeLevels()
	want := map[string]string{}
	paths := []string{"/x", "/~alice/x", "/~alice/blog/x", "/projects/x"}
	for _, p := range paths {
		r := resolve(t, lf.fs(), p)
		want[p] = chainOf(r) + " " + strings.Join(warningsOf(r), ",")
	}
	for _, end := range []string{"\r\n", "\r", "\n\n\r\n  \t\r"} {
		s := site{}
		for k, v := range lf {
			s[k] = strings.ReplaceAll(v, "\n", end)
		}
		s["autodisc/index.txt"] = strings.Join([]string{"description.txt", "feeds.txt", "icons.txt", "robots.txt", "subdirectories.txt", "x-contact.txt"}, end)
		s["~alice/autodisc/index.txt"] = "\uFEFFdescription.txt" + end + "feeds.txt" + end + "robots.txt" + end + "subdirectories.txt"
		for _, p := range paths {
			r := resolve(t, s.fs(), p)
			if got := chainOf(r) + " " + strings.Join(warningsOf(r), ","); got != want[p] {
				t.Errorf("line end %q: %s: %q, want %q", end, p, got, want[p])
			}
		}
		r := resolve(t, s.fs(), "/~alice/blog/x")
		checkFiles(t, r, map[string]string{"feeds.txt": "/~alice/blog/"})
	}
}

func TestLines(t *testing.T) {
	in := "\uFEFFa\r\nb\rc\n\n  d  \r\n\r\n\te f\n\r"
	type line struct {
		n int
		s string
	}
	var got []line
	for n, s := range Lines([]byte(in)) {
		got = append(got, line{n, s})
	}
	want := []line{{1, "a"}, {2, "b"}, {3, "c"}, {5, "d"}, {7, "e f"}}
	if !slices.Equal(got, want) {
		t.Errorf("Lines = %v, want %v", got, want)
	}
	for range Lines([]byte("a\nb")) {
		break // yield must stop
	}
}

// loopFS serves every autodisc directory from the root's, as a link from
// each delegatee back to the root would: every subdirectories.txt delegates
// again. It has only Open, so that fs.Stat and fs.ReadDir go through it.
type loopFS struct{ m fstest.MapFS }

func (l loopFS) Open(name string) (fs.File, error) {
	if i := strings.LastIndex(name, "autodisc"); i > 0 && (i+len("autodisc") == len(name) || name[i+len("autodisc")] == '/') {
		name = name[i:]
	}
	return l.m.Open(name)
}

func TestDepthLimit(t *testing.T) {
	fsys := loopFS{site{"autodisc/subdirectories.txt": "*\n", "autodisc/description.txt": "d"}.fs()}
	deep := "/" + strings.Repeat("a/", 50) + "x"
	r := resolve(t, fsys, deep)
	if len(r.Chain) != DefaultMaxDepth+2 {
		t.Fatalf("chain of %d levels, want %d", len(r.Chain), DefaultMaxDepth+2)
	}
	last := r.Chain[len(r.Chain)-1]
	if last.Read || !strings.Contains(last.Note, "32 levels") || last.Space.String() != "/"+strings.Repeat("a/", 33) {
		t.Errorf("last level %+v", last)
	}
	checkFiles(t, r, map[string]string{"description.txt": "undefined (/" + strings.Repeat("a/", 33) + " is not read: not read: more than 32 levels of delegation)"})
	if !hasWarning(r, strings.Repeat("a/", 32)+"autodisc/subdirectories.txt", 1, CodeDepth) {
		t.Errorf("no depth warning")
	}

	rd := &Reader{FS: fsys, MaxDepth: 3}
	r, err := rd.Resolve(deep)
	if err != nil || len(r.Chain) != 5 || r.Chain[3].Read != true || r.Chain[4].Read {
		t.Errorf("MaxDepth 3: %v, chain %q", err, chainOf(r))
	}
	// A short path ends the loop on its own.
	r = resolve(t, fsys, "/a/b/")
	if chainOf(r) != "/=autodisc /a/=a/autodisc /a/b/=a/b/autodisc" {
		t.Errorf("chain %q", chainOf(r))
	}
	checkFiles(t, r, map[string]string{"description.txt": "/a/b/"})
}

func TestTooManyWarnings(t *testing.T) {
	s := site{"autodisc/subdirectories.txt": strings.Repeat("../x\n", 150)}
	r := resolve(t, s.fs(), "/x")
	if len(r.Warnings) != MaxWarnings+1 {
		t.Fatalf("%d warnings", len(r.Warnings))
	}
	if w := r.Warnings[MaxWarnings]; w.Code != CodeTooMany || w.Message != "50 more warnings not listed" {
		t.Errorf("last warning %+v", w)
	}
}
