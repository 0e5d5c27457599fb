package autodisc

import (
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/discgen/discgen/pathspace"
)

func TestHugeFilesRefused(t *testing.T) {
	huge := strings.Repeat("~alice\n", DefaultMaxFileSize/7+1)
	s := site{
		"autodisc/subdirectories.txt":     huge,
		"autodisc/icons.txt":              strings.Repeat("x", DefaultMaxFileSize+1),
		"autodisc/feeds.txt":              strings.Repeat("x", DefaultMaxFileSize),
		"~alice/autodisc/description.txt": "alice",
	}
	r := resolve(t, s.fs(), "/~alice/x")
	if chainOf(r) != "/=autodisc" {
		t.Errorf("a refused subdirectories.txt is followed: %q", chainOf(r))
	}
	checkFiles(t, r, map[string]string{
		"icons.txt":          "undefined (/'s icons.txt is ignored: is larger than the limit of 1 MiB (1048577 bytes))",
		"feeds.txt":          "/",
		"subdirectories.txt": "undefined (/'s subdirectories.txt is ignored: is larger than the limit of 1 MiB (" + strconv.Itoa(len(huge)) + " bytes))",
	})
	if !hasWarning(r, "autodisc/subdirectories.txt", 0, CodeRefused) || !hasWarning(r, "autodisc/icons.txt", 0, CodeRefused) || len(r.Warnings) != 2 {
		t.Errorf("warnings %q", warningsOf(r))
	}

	// A smaller limit, and a refused index.txt: the directory's files are
	// then those present.
	s = site{
		"autodisc/index.txt":          strings.Repeat("robots.txt\n", 10),
		"autodisc/robots.txt":         "r",
		"autodisc/subdirectories.txt": "a\n",
		"a/autodisc/robots.txt":       "r",
	}
	r, err := (&Reader{FS: s.fs(), MaxFileSize: 64}).Resolve("/a/x")
	if err != nil {
		t.Fatal(err)
	}
	if chainOf(r) != "/=autodisc /a/=a/autodisc" || !hasWarning(r, "autodisc/index.txt", 0, CodeRefused) {
		t.Errorf("chain %q, warnings %q", chainOf(r), warningsOf(r))
	}
}

// sizeLiar reports a small size for a file that is large: the read itself
// must stop at the limit.
type sizeLiar struct{ m fstest.MapFS }

func (l sizeLiar) Open(name string) (fs.File, error) {
	f, err := l.m.Open(name)
	if err != nil {
		return nil, err
	}
	return liarFile{f}, nil
}

type liarFile struct{ fs.File }

func (f liarFile) Stat() (fs.FileInfo, error) {
	fi, err := f.File.Stat()
	return liarInfo{fi}, err
}

type liarInfo struct{ fs.FileInfo }

func (liarInfo) Size() int64 { return 1 }

func TestReadLimitedWhateverStatSays(t *testing.T) {
	fsys := sizeLiar{fstest.MapFS{"f": {Data: []byte(strings.Repeat("x", 100))}}}
	if _, err := readFile(fsys, "f", 50); err == nil || refusal(err) != "is larger than the limit of 50 bytes" {
		t.Errorf("readFile = %v", err)
	}
	if data, err := readFile(fsys, "f", 100); err != nil || len(data) != 100 {
		t.Errorf("readFile at the limit = %d bytes, %v", len(data), err)
	}
}

func TestSpecialFilesRefused(t *testing.T) {
	fsys := site{"autodisc/robots.txt": "r", "autodisc/index.txt": "robots.txt\nsubdirectories.txt\nx-dir\n"}.fs()
	fsys["autodisc/subdirectories.txt"] = &fstest.MapFile{Mode: fs.ModeNamedPipe}
	fsys["autodisc/x-dir/a"] = &fstest.MapFile{Data: []byte("a")}
	r := resolve(t, fsys, "/x")
	if !hasWarning(r, "autodisc/subdirectories.txt", 0, CodeRefused) || !hasWarning(r, "autodisc/x-dir", 0, CodeRefused) {
		t.Errorf("warnings %q", warningsOf(r))
	}
	checkFiles(t, r, map[string]string{"robots.txt": "/", "x-dir": "undefined (/'s x-dir is ignored: is a directory)"})
}

func TestManyEntries(t *testing.T) {
	s := site{"autodisc/robots.txt": "r"}
	for i := range 20 {
		s["autodisc/x-"+strconv.Itoa(i)+".txt"] = "x"
	}
	fsys := s.fs()
	r, err := (&Reader{FS: fsys, MaxEntries: 8}).Resolve("/")
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(r, "autodisc", 0, CodeTooMany) || !hasWarning(r, "autodisc/index.txt", 9, CodeTooMany) {
		t.Errorf("warnings %q", warningsOf(r))
	}
	if n := len(r.Chain[0].Files); n != 9 { // 8 names and index.txt
		t.Errorf("%d files held: %q", n, r.Chain[0].Files)
	}
}

func TestParseSubdirectories(t *testing.T) {
	alice, err := pathspace.Parse(pathspace.Root(), "~alice")
	if err != nil {
		t.Fatal(err)
	}
	in := "blog feeds.txt\r\n/pics/ - robots.txt icons.txt\r\n\r\nx/y/ - \r\n../up\r\nz a/b c.txt -\n%2e%2e/\n~*\n"
	ds, probs := ParseSubdirectories(alice, []byte(in))
	type got struct {
		line   int
		space  string
		only   []string
		except []string
	}
	var gs []got
	for _, d := range ds {
		gs = append(gs, got{d.Line, d.Space.String(), d.Grant.Only, d.Grant.Except})
	}
	want := []got{
		{1, "/~alice/blog/", []string{"feeds.txt"}, nil},
		{2, "/~alice/pics/", nil, []string{"robots.txt", "icons.txt"}},
		{4, "/~alice/x/y/", nil, []string{}},
		{6, "/~alice/z/", []string{"c.txt"}, nil},
		{8, "/~alice/~*/", nil, nil},
	}
	if !slices.EqualFunc(gs, want, func(a, b got) bool {
		return a.line == b.line && a.space == b.space && slices.Equal(a.only, b.only) && slices.Equal(a.except, b.except) &&
			(a.only == nil) == (b.only == nil) && (a.except == nil) == (b.except == nil)
	}) {
		t.Errorf("delegations\n %+v\nwant\n %+v", gs, want)
	}
	var pl []string
	for _, p := range probs {
		pl = append(pl, strconv.Itoa(p.Line)+" "+p.Code)
	}
	if want := []string{"5 delegation", "6 file-name", "6 file-name", "7 delegation"}; !slices.Equal(pl, want) {
		t.Errorf("problems %q, want %q", pl, want)
	}
}

func TestValidName(t *testing.T) {
	for _, n := range []string{"robots.txt", "x-contact.txt", "é.txt", ".x", "a-b"} {
		if !ValidName(n) {
			t.Errorf("ValidName(%q) = false", n)
		}
	}
	for _, n := range []string{"", ".", "..", "-", "a/b", "a\\b", "a b", "a\tb", "a\x00", "\xff", "a\u00a0b"} {
		if ValidName(n) {
			t.Errorf("ValidName(%q) = true", n)
		}
	}
}
