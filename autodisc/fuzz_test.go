package autodisc

import (
	"net/url"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/discgen/discgen/pathspace"
)

// Every delegation ParseSubdirectories accepts lies strictly inside the
// writer's space, and every name in its lists is a file name.
func FuzzParseSubdirectories(f *testing.F) {
	for _, s := range []string{
		"blog feeds.txt\n/pics/ - robots.txt\n",
		"../etc\n%2e%2e/x\na/%2E./b\n",
		"~*\r\n/a*c/ x-a.txt\r",
		"a\\b\na//b\n%2F\n. -\n",
		"\uFEFFx - subdirectories.txt\n\n\n",
	} {
		f.Add("~alice", s)
		f.Add("", s)
	}
	f.Fuzz(func(t *testing.T, base, data string) {
		b := pathspace.Root()
		if base != "" {
			var err error
			if b, err = pathspace.Parse(pathspace.Root(), base); err != nil {
				return
			}
		}
		ds, probs := ParseSubdirectories(b, []byte(data))
		last := 0
		for _, d := range ds {
			if _, ok := d.Space.Relative(b); !ok || !pathspace.Within(b, d.Space) {
				t.Fatalf("line %d: %q gives %s, not inside %s", d.Line, d.Path, d.Space, b)
			}
			if d.Line <= last {
				t.Fatalf("line %d after line %d", d.Line, last)
			}
			last = d.Line
			for _, n := range append(append([]string{}, d.Grant.Only...), d.Grant.Except...) {
				if !ValidName(n) {
					t.Fatalf("line %d: name %q", d.Line, n)
				}
			}
			if d.Grant.Only != nil && d.Grant.Except != nil {
				t.Fatalf("line %d: both lists", d.Line)
			}
		}
		for _, p := range probs {
			if p.Line < 1 || p.Code == "" || p.Message == "" {
				t.Fatalf("problem %+v", p)
			}
		}
	})
}

// Resolve never panics, whatever the files say, and its chain is a chain:
// each level's space lies strictly inside the one above and holds the path.
func FuzzResolve(f *testing.F) {
	f.Add("~* icons.txt\n/projects/ - robots.txt\n", "blog feeds.txt\n", "description.txt\nfeeds.txt\n", "/~alice/blog/x")
	f.Add("*\n", "*\n", "*\n", "/a/b/c/d/e")
	f.Add("a\na*\n", "../b\n%2e%2e\n", "", "/a/a%2Fb/c")
	f.Add("~*\n", "b - subdirectories.txt\n", "x\n", "/~%C2%85/b/c")
	f.Fuzz(func(t *testing.T, rootSub, childSub, index, p string) {
		if !strings.HasPrefix(p, "/") || !utf8.ValidString(p) {
			return
		}
		canon, _ := pathspace.CanonicalPath(p)
		m := fstest.MapFS{
			"autodisc/subdirectories.txt": {Data: []byte(rootSub)},
			"autodisc/robots.txt":         {Data: []byte("r")},
		}
		// Give every prefix of the path an autodisc directory.
		segs := strings.Split(strings.Trim(canon, "/"), "/")
		for i := 1; i <= len(segs) && i < 6; i++ {
			dir := strings.Join(segs[:i], "/")
			if dec, err := url.PathUnescape(dir); err == nil {
				dir = dec
			}
			m[dir+"/autodisc/subdirectories.txt"] = &fstest.MapFile{Data: []byte(childSub)}
			m[dir+"/autodisc/index.txt"] = &fstest.MapFile{Data: []byte(index)}
			m[dir+"/autodisc/feeds.txt"] = &fstest.MapFile{Data: []byte("f")}
		}
		r, err := Resolve(m, p)
		if err != nil {
			t.Fatal(err)
		}
		for i, lv := range r.Chain {
			if !lv.Space.Contains(p) && lv.Space.Literal() {
				t.Fatalf("level %d: %s does not hold %q", i, lv.Space, p)
			}
			if i > 0 {
				if _, ok := lv.Delegation.Relative(r.Chain[i-1].Space); !ok {
					t.Fatalf("level %d: %s is not inside %s", i, lv.Delegation, r.Chain[i-1].Space)
				}
			}
		}
		for _, f := range r.Files {
			if f.Level >= len(r.Chain) || (f.Level < 0 || !f.Defined) && f.Reason == "" {
				t.Fatalf("file %+v", f)
			}
		}
	})
}
