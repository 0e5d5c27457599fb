package serverconf

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/tree"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// sample is a small rendered site: the root files, an autodisc directory
// with robots.txt as a link, well-known files, an inline delegatee and a
// non-ASCII directory.
func sample() tree.Tree {
	return tree.Tree{
		"robots.txt":                     {Data: []byte("User-agent: *\nDisallow:\n")},
		"data.txt":                       {Data: []byte("User-agent: *\nAllow: /data/\n")},
		"autodisc/index.txt":             {Data: []byte("robots.txt\ndescription.txt\n")},
		"autodisc/robots.txt":            {Link: "../robots.txt"},
		"autodisc/description.txt":       {Data: []byte("Fictional Org\n")},
		".well-known/security.txt":       {Data: []byte("Contact: mailto:security@fict.org\n")},
		".well-known/gpc.json":           {Data: []byte(`{"gpc": true}`)},
		".well-known/nodeinfo":           {Data: []byte(`{"links": []}`)},
		".well-known/change-password":    {Data: []byte("x")},
		"projects/autodisc/feeds.txt":    {Data: []byte("/projects/releases.atom\n")},
		"café/autodisc/description.txt": {Data: []byte("Café\n")},
	}
}

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update to rewrite)\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestGolden(t *testing.T) {
	public, separate, err := Render(sample(), Kinds)
	if err != nil {
		t.Fatal(err)
	}
	wantPublic := []string{HtaccessFile, HeadersFile}
	if got := public.Paths(); strings.Join(got, " ") != strings.Join(wantPublic, " ") {
		t.Errorf("public paths = %q, want %q", got, wantPublic)
	}
	wantSeparate := []string{CaddyFile, NginxFile}
	if got := separate.Paths(); strings.Join(got, " ") != strings.Join(wantSeparate, " ") {
		t.Errorf("separate paths = %q, want %q", got, wantSeparate)
	}
	for _, c := range []struct {
		tr     tree.Tree
		path   string
		golden string
	}{
		{public, HeadersFile, "headers.golden"},
		{public, HtaccessFile, "htaccess.golden"},
		{separate, NginxFile, "nginx.golden"},
		{separate, CaddyFile, "caddy.golden"},
	} {
		e, ok := c.tr[c.path]
		if !ok {
			t.Errorf("%s missing", c.path)
			continue
		}
		if e.Link != "" {
			t.Errorf("%s is a link", c.path)
		}
		golden(t, c.golden, e.Data)
	}
}
