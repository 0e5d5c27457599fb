package autodisc

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/discgen/discgen/pathspace"
)

// site is a served tree: path -> content. Each autodisc directory gets an
// index.txt listing its other files unless the map gives one.
type site map[string]string

func (s site) fs() fstest.MapFS {
	m := fstest.MapFS{}
	dirs := map[string][]string{}
	for p, data := range s {
		m[p] = &fstest.MapFile{Data: []byte(data)}
		if i := strings.LastIndex(p, "/"); i >= 0 && strings.HasSuffix(p[:i], "autodisc") {
			dirs[p[:i]] = append(dirs[p[:i]], p[i+1:])
		}
	}
	for dir, names := range dirs {
		if _, ok := s[dir+"/index.txt"]; ok {
			continue
		}
		slices.Sort(names)
		m[dir+"/index.txt"] = &fstest.MapFile{Data: []byte(strings.Join(names, "\n") + "\n")}
	}
	return m
}

// threeLevels is the tree of the design's example: the root delegates "~*"
// with an only-list and "/projects/" with an except-list; alice delegates
// blog/ with an only-list. Each delegatee also holds files it was not given.
func threeLevels() site {
	return site{
		"autodisc/robots.txt":                  "User-agent: *\nDisallow:\n",
		"autodisc/description.txt":             "Fictional Org\n",
		"autodisc/icons.txt":                   "https://fict.org/favicon.ico\n",
		"autodisc/feeds.txt":                   "https://fict.org/news.atom\n",
		"autodisc/x-contact.txt":               "webmaster@fict.org\n",
		"autodisc/subdirectories.txt":          "/~*/ icons.txt description.txt feeds.txt\n/projects/ - robots.txt\n",
		"~alice/autodisc/description.txt":      "Alice\n",
		"~alice/autodisc/feeds.txt":            "https://fict.org/~alice/feed.atom\n",
		"~alice/autodisc/robots.txt":           "User-agent: *\nDisallow: /\n", // not delegated: ignored
		"~alice/autodisc/subdirectories.txt":   "blog feeds.txt\n",
		"~alice/blog/autodisc/feeds.txt":       "https://fict.org/~alice/blog.atom\n",
		"~alice/blog/autodisc/description.txt": "Alice's blog\n", // not delegated: ignored
		"projects/autodisc/description.txt":    "Fict.org projects\n",
		"projects/autodisc/robots.txt":         "User-agent: *\nDisallow: /\n", // excepted: ignored
		"projects/autodisc/feeds.txt":          "https://fict.org/projects/releases.atom\n",
	}
}

func resolve(t *testing.T, fsys fs.FS, p string) *Result {
	t.Helper()
	r, err := Resolve(fsys, p)
	if err != nil {
		t.Fatalf("Resolve(%q): %v", p, err)
	}
	return r
}

// chainOf is "space=dir" per level, root first; an unread level is
// "space=dir!".
func chainOf(r *Result) string {
	var out []string
	for _, lv := range r.Chain {
		s := lv.Space.String() + "=" + lv.Dir
		if !lv.Read {
			s += "!"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// filesOf maps each file to its source space, "undefined", and the reason
// in parentheses when there is one.
func filesOf(r *Result) map[string]string {
	m := map[string]string{}
	for _, f := range r.Files {
		s := "undefined"
		if f.Defined {
			s = r.Chain[f.Level].Space.String()
		}
		if f.Reason != "" {
			s += " (" + f.Reason + ")"
		}
		m[f.Name] = s
	}
	return m
}

// warningsOf lists the warnings as "file:line code".
func warningsOf(r *Result) []string {
	var out []string
	for _, w := range r.Warnings {
		out = append(out, fmt.Sprintf("%s:%d %s", w.File, w.Line, w.Code))
	}
	return out
}

func checkFiles(t *testing.T, r *Result, want map[string]string) {
	t.Helper()
	got := filesOf(r)
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if got[name] != want[name] {
			t.Errorf("%s: %s: got %q, want %q", r.Path, name, got[name], want[name])
		}
	}
}

func TestResolveThreeLevels(t *testing.T) {
	fsys := threeLevels().fs()
	tests := []struct {
		path  string
		chain string
		files map[string]string
		warns []string
	}{
		{
			path:  "/index.html",
			chain: "/=autodisc",
			files: map[string]string{
				"robots.txt": "/", "description.txt": "/", "icons.txt": "/", "feeds.txt": "/",
				"x-contact.txt": "/", "subdirectories.txt": "/",
			},
		},
		{
			path:  "/~alice/notes.html",
			chain: "/=autodisc /~alice/=~alice/autodisc",
			files: map[string]string{
				"description.txt":    "/~alice/",
				"feeds.txt":          "/~alice/",
				"icons.txt":          "undefined (/~alice/ has no icons.txt)",
				"robots.txt":         "undefined (not delegated: only-list of /)",
				"x-contact.txt":      "undefined (not delegated: only-list of /)",
				"subdirectories.txt": "/~alice/",
			},
			warns: []string{"~alice/autodisc/robots.txt:0 not-delegated"},
		},
		{
			path:  "/~alice/blog/2026/post.html",
			chain: "/=autodisc /~alice/=~alice/autodisc /~alice/blog/=~alice/blog/autodisc",
			files: map[string]string{
				"feeds.txt":          "/~alice/blog/",
				"description.txt":    "undefined (not delegated: only-list of /~alice/)",
				"icons.txt":          "undefined (not delegated: only-list of /~alice/)",
				"robots.txt":         "undefined (not delegated: only-list of /~alice/)",
				"subdirectories.txt": "undefined (/~alice/blog/ has no subdirectories.txt)",
			},
			warns: []string{"~alice/autodisc/robots.txt:0 not-delegated", "~alice/blog/autodisc/description.txt:0 not-delegated"},
		},
		{
			path:  "/projects/a/b.html",
			chain: "/=autodisc /projects/=projects/autodisc",
			files: map[string]string{
				"robots.txt":      "/ (excepted by /)",
				"description.txt": "/projects/",
				"feeds.txt":       "/projects/",
				"icons.txt":       "undefined (/projects/ has no icons.txt; not inherited from /: a delegated file the delegatee lacks is undefined (seed 000 section 4.2), read over the except paragraph's \"inherited\")",
				"x-contact.txt":   "undefined (/projects/ has no x-contact.txt; not inherited from /: a delegated file the delegatee lacks is undefined (seed 000 section 4.2), read over the except paragraph's \"inherited\")",
			},
			warns: []string{"projects/autodisc/robots.txt:0 not-delegated"},
		},
		{
			// Not in /~alice/: the path has no "/" after the segment.
			path:  "/~alice",
			chain: "/=autodisc",
			files: map[string]string{"description.txt": "/"},
		},
		{
			// Escapes and dot segments are resolved before matching.
			path:  "/%7Ealice/x/../blog/?q#f",
			chain: "/=autodisc /~alice/=~alice/autodisc /~alice/blog/=~alice/blog/autodisc",
			files: map[string]string{"feeds.txt": "/~alice/blog/"},
			warns: []string{"~alice/autodisc/robots.txt:0 not-delegated", "~alice/blog/autodisc/description.txt:0 not-delegated"},
		},
		{
			// bob has no autodisc directory: what the root gave him is
			// undefined; what it kept out is still undefined.
			path:  "/~bob/x",
			chain: "/=autodisc /~bob/=~bob/autodisc!",
			files: map[string]string{
				"description.txt": "undefined (/~bob/ is not read: not found)",
				"robots.txt":      "undefined (not delegated: only-list of /)",
			},
			warns: []string{"autodisc/subdirectories.txt:1 no-directory"},
		},
	}
	for _, tt := range tests {
		r := resolve(t, fsys, tt.path)
		if got := chainOf(r); got != tt.chain {
			t.Errorf("%s: chain %q, want %q", tt.path, got, tt.chain)
		}
		checkFiles(t, r, tt.files)
		if got := warningsOf(r); !slices.Equal(got, tt.warns) {
			t.Errorf("%s: warnings %q, want %q", tt.path, got, tt.warns)
		}
		if _, ok := filesOf(r)[Index]; ok {
			t.Errorf("%s: index.txt is reported as a file", tt.path)
		}
		if !slices.IsSortedFunc(r.Files, func(a, b File) int { return strings.Compare(a.Name, b.Name) }) {
			t.Errorf("%s: files not sorted", tt.path)
		}
	}
}

func TestResolveLevels(t *testing.T) {
	r := resolve(t, threeLevels().fs(), "/~alice/blog/x")
	if len(r.Chain) != 3 {
		t.Fatalf("chain %q", chainOf(r))
	}
	alice, blog := r.Chain[1], r.Chain[2]
	if alice.Delegation.String() != "/~*/" || alice.Line != 1 || alice.Granted.String() != "description.txt feeds.txt icons.txt subdirectories.txt" {
		t.Errorf("alice: delegation %s line %d granted %s", alice.Delegation, alice.Line, alice.Granted)
	}
	if blog.Delegation.String() != "/~alice/blog/" || !slices.Equal(blog.Grant.Only, []string{"feeds.txt"}) || blog.Granted.String() != "feeds.txt subdirectories.txt" {
		t.Errorf("blog: delegation %s grant %+v granted %s", blog.Delegation, blog.Grant, blog.Granted)
	}
	if want := []string{"description.txt", "feeds.txt", "index.txt"}; !slices.Equal(blog.Files, want) {
		t.Errorf("blog holds %q, want %q", blog.Files, want)
	}
	if r.Path != "/~alice/blog/x" {
		t.Errorf("Path = %q", r.Path)
	}
}

// The answers agree with pathspace.Resolve on the same authorities built by
// hand, file by file.
func TestResolveAgreesWithPathspace(t *testing.T) {
	parse := func(base pathspace.Space, p string) pathspace.Space {
		s, err := pathspace.Parse(base, p)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	aliceSp := parse(pathspace.Root(), "~alice")
	blog := &pathspace.Authority{Space: parse(aliceSp, "blog"), Files: []string{"description.txt", "feeds.txt", "index.txt"}}
	alice := &pathspace.Authority{Space: aliceSp, Files: []string{"description.txt", "feeds.txt", "index.txt", "robots.txt", "subdirectories.txt"},
		Delegations: []*pathspace.Delegation{{Space: blog.Space, Grant: pathspace.Grant{Only: []string{"feeds.txt"}}, Delegatees: []*pathspace.Authority{blog}}}}
	projects := &pathspace.Authority{Space: parse(pathspace.Root(), "projects"), Files: []string{"description.txt", "feeds.txt", "index.txt", "robots.txt"}}
	root := &pathspace.Authority{Space: pathspace.Root(),
		Files: []string{"description.txt", "feeds.txt", "icons.txt", "index.txt", "robots.txt", "subdirectories.txt", "x-contact.txt"},
		Delegations: []*pathspace.Delegation{
			{Space: parse(pathspace.Root(), "~*"), Grant: pathspace.Grant{Only: []string{"icons.txt", "description.txt", "feeds.txt"}}, Delegatees: []*pathspace.Authority{alice}},
			{Space: projects.Space, Grant: pathspace.Grant{Except: []string{"robots.txt"}}, Delegatees: []*pathspace.Authority{projects}},
		}}
	fsys := threeLevels().fs()
	for _, p := range []string{"/", "/x", "/~alice/", "/~alice/blog/", "/~alice/blogs/", "/projects/", "/~bob/"} {
		want := pathspace.Resolve(root, p)
		got := resolve(t, fsys, p)
		for _, f := range got.Files {
			src := want.Source(f.Name)
			if src.Step != f.Level || src.Defined != f.Defined {
				t.Errorf("%s: %s: level %d defined %v, pathspace says %+v", p, f.Name, f.Level, f.Defined, src)
			}
		}
		if len(got.Files) == 0 {
			t.Errorf("%s: no files", p)
		}
	}
}

func TestNoAutodisc(t *testing.T) {
	for _, fsys := range []fs.FS{
		fstest.MapFS{},
		fstest.MapFS{"index.html": {Data: []byte("x")}},
		fstest.MapFS{"autodisc": {Data: []byte("a file, not a directory")}},
	} {
		if _, err := Resolve(fsys, "/"); !errors.Is(err, ErrNoAutodisc) {
			t.Errorf("Resolve = %v, want ErrNoAutodisc", err)
		}
	}
	if _, err := Resolve(threeLevels().fs(), "relative/path"); err == nil {
		t.Errorf("a relative path is accepted")
	}
}

func TestEmptyRoot(t *testing.T) {
	fsys := fstest.MapFS{"autodisc": {Mode: fs.ModeDir | 0o755}}
	r := resolve(t, fsys, "/x")
	if chainOf(r) != "/=autodisc" || len(r.Warnings) != 0 {
		t.Errorf("chain %q, warnings %q", chainOf(r), warningsOf(r))
	}
	checkFiles(t, r, map[string]string{"robots.txt": "undefined (/ has no robots.txt)"})
}

// deniedFS refuses every name under a prefix, as a directory without
// permission does.
type deniedFS struct {
	m      fstest.MapFS
	prefix string
}

func (d deniedFS) Open(name string) (fs.File, error) {
	if strings.HasPrefix(name, d.prefix) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.m.Open(name)
}

func TestUnreadableDirectories(t *testing.T) {
	s := threeLevels()
	s["~bob/autodisc"] = "a file where a directory should be"
	fsys := s.fs()
	r := resolve(t, fsys, "/~bob/x")
	if chainOf(r) != "/=autodisc /~bob/=~bob/autodisc!" || r.Chain[1].Note != "not a directory" {
		t.Errorf("chain %q, note %q", chainOf(r), r.Chain[1].Note)
	}
	checkFiles(t, r, map[string]string{"description.txt": "undefined (/~bob/ is not read: not a directory)"})

	r = resolve(t, deniedFS{fsys, "~alice/"}, "/~alice/x")
	if chainOf(r) != "/=autodisc /~alice/=~alice/autodisc!" || r.Chain[1].Note != "unreadable: permission denied" {
		t.Errorf("chain %q, note %q", chainOf(r), r.Chain[1].Note)
	}
	if len(r.Warnings) != 1 || r.Warnings[0].Code != CodeNoDir || !strings.Contains(r.Warnings[0].Message, "is unreadable: permission denied") {
		t.Errorf("warnings %v", r.Warnings)
	}

	_, err := Resolve(deniedFS{fsys, "autodisc"}, "/x")
	if err == nil || errors.Is(err, ErrNoAutodisc) || err.Error() != "autodisc: unreadable: permission denied" {
		t.Errorf("Resolve with the root denied: %v", err)
	}
}
