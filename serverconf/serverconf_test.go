package serverconf

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
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
		"robots.txt":                    {Data: []byte("User-agent: *\nDisallow:\n")},
		"data.txt":                      {Data: []byte("User-agent: *\nAllow: /data/\n")},
		"autodisc/index.txt":            {Data: []byte("robots.txt\ndescription.txt\n")},
		"autodisc/robots.txt":           {Link: "../robots.txt"},
		"autodisc/description.txt":      {Data: []byte("Fictional Org\n")},
		".well-known/security.txt":      {Data: []byte("Contact: mailto:security@fict.org\n")},
		".well-known/gpc.json":          {Data: []byte(`{"gpc": true}`)},
		".well-known/nodeinfo":          {Data: []byte(`{"links": []}`)},
		".well-known/change-password":   {Data: []byte("x")},
		".well-known/matrix/server":     {Data: []byte(`{"m.server": "matrix.fict.org:443"}`)},
		"projects/autodisc/feeds.txt":   {Data: []byte("/projects/releases.atom\n")},
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
	public, separate, err := Render(sample(), Kinds())
	if err != nil {
		t.Fatal(err)
	}
	wantPublic := []string{HtaccessFile, HeadersFile, RedirectsFile}
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
		{public, RedirectsFile, "redirects.golden"},
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

func TestDeterministic(t *testing.T) {
	pub1, sep1, err := Render(sample(), Kinds())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		// Each call builds a new map, so Go's map order differs between runs.
		pub2, sep2, err := Render(sample(), Kinds())
		if err != nil {
			t.Fatal(err)
		}
		for _, pair := range [][2]tree.Tree{{pub1, pub2}, {sep1, sep2}} {
			if len(pair[0]) != len(pair[1]) {
				t.Fatalf("run %d: %d files, first run %d", i, len(pair[1]), len(pair[0]))
			}
			for p, e := range pair[0] {
				if !bytes.Equal(e.Data, pair[1][p].Data) {
					t.Fatalf("run %d: %s differs from the first run", i, p)
				}
			}
		}
	}
}

func TestRenderSubset(t *testing.T) {
	public, separate, err := Render(sample(), []Kind{Nginx, Nginx})
	if err != nil {
		t.Fatal(err)
	}
	if len(public) != 0 || len(separate) != 1 || separate[NginxFile].Data == nil {
		t.Errorf("Render(nginx twice) = public %q, separate %q; want only %s", public.Paths(), separate.Paths(), NginxFile)
	}
	public, separate, err = Render(sample(), nil)
	if err != nil || public == nil || separate == nil || len(public)+len(separate) != 0 {
		t.Errorf("Render(no kinds) = %v, %v, %v; want two empty trees", public, separate, err)
	}
	if _, _, err := Render(sample(), []Kind{"lighttpd"}); err == nil || !strings.Contains(err.Error(), "lighttpd") {
		t.Errorf("Render(lighttpd) error = %v, want one naming the kind", err)
	}
}

func TestRenderEmptyTree(t *testing.T) {
	public, separate, err := Render(tree.Tree{}, Kinds())
	if err != nil {
		t.Fatal(err)
	}
	if len(public) != 3 || len(separate) != 2 {
		t.Fatalf("got %q and %q, want all four files and _redirects", public.Paths(), separate.Paths())
	}
	if got := string(public[HeadersFile].Data); strings.Contains(got, "\n/") {
		t.Errorf("_headers of an empty tree has a rule:\n%s", got)
	}
}

func TestParseKinds(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []Kind
	}{
		{"", nil},
		{"  ", nil},
		{"nginx", []Kind{Nginx}},
		{"caddy,headers", []Kind{Caddy, Headers}},
		{" htaccess , nginx ", []Kind{Htaccess, Nginx}},
		{"nginx,caddy,nginx", []Kind{Nginx, Caddy}},
		{"headers,htaccess,nginx,caddy", Kinds()},
	} {
		got, err := ParseKinds(c.in)
		if err != nil {
			t.Errorf("ParseKinds(%q): %v", c.in, err)
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("ParseKinds(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, mention string }{
		{"apache", `"apache"`},
		{"Nginx", `"Nginx"`},
		{"nginx,", "empty"},
		{",caddy", "empty"},
		{"nginx,,caddy", "empty"},
		{"_headers", `"_headers"`},
	} {
		got, err := ParseKinds(c.in)
		if err == nil {
			t.Errorf("ParseKinds(%q) = %q, want an error", c.in, got)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.mention) || !strings.Contains(msg, "headers, htaccess, nginx, caddy") {
			t.Errorf("ParseKinds(%q) error %q should mention %s and list the valid names", c.in, msg, c.mention)
		}
	}
}

func TestKindFile(t *testing.T) {
	for _, c := range []struct {
		k      Kind
		path   string
		public bool
	}{
		{Headers, "_headers", true},
		{Htaccess, ".htaccess", true},
		{Nginx, "nginx/discgen.conf", false},
		{Caddy, "caddy/discgen.caddy", false},
		{"other", "", false},
	} {
		p, pub := c.k.File()
		if p != c.path || pub != c.public {
			t.Errorf("%q.File() = %q, %v; want %q, %v", c.k, p, pub, c.path, c.public)
		}
		if p != "" {
			if err := tree.CheckPath(p); err != nil {
				t.Errorf("%q.File(): %v", c.k, err)
			}
		}
	}
}

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		path     string
		ctype    string
		maxAgeOf string
	}{
		{"robots.txt", "text/plain; charset=utf-8", "max-age=86400"},
		{"data.txt", "text/plain; charset=utf-8", "max-age=604800"},
		{"autodisc/index.txt", "text/plain; charset=utf-8", "max-age=604800"},
		{"autodisc/robots.txt", "text/plain; charset=utf-8", "max-age=604800"},
		{"a/b/autodisc/x-contact.txt", "text/plain; charset=utf-8", "max-age=604800"},
		{"notautodisc/index.txt", "text/plain; charset=utf-8", "max-age=86400"},
		{"autodisc/sub/index.txt", "text/plain; charset=utf-8", "max-age=86400"},
		{"sub/robots.txt", "text/plain; charset=utf-8", "max-age=86400"},
		{"sub/data.txt", "text/plain; charset=utf-8", "max-age=86400"},
		{".well-known/security.txt", "text/plain; charset=utf-8", "max-age=86400"},
		{".well-known/mta-sts.txt", "text/plain; charset=utf-8", "max-age=86400"},
		{".well-known/gpc.json", "application/json", "max-age=86400"},
		{".well-known/nodeinfo", "application/json", "max-age=86400"},
		{".well-known/openid-configuration", "application/json", "max-age=86400"},
		{".well-known/host-meta", "application/xrd+xml", "max-age=86400"},
		{".well-known/host-meta.json", "application/json", "max-age=86400"},
		{".well-known/change-password", "application/octet-stream", "max-age=86400"},
		{"nodeinfo", "application/octet-stream", "max-age=86400"},
		{".well-known/x.TXT", "text/plain; charset=utf-8", "max-age=86400"},
		{".well-known/x.txt.gz", "application/octet-stream", "max-age=86400"},
		{".well-known/webfinger.jrd", "application/jrd+json", "max-age=86400"},
		{".well-known/host-meta.xml", "application/xml", "max-age=86400"},
		{".well-known/apple-app-site-association", "application/json", "max-age=86400"},
		{".well-known/oauth-authorization-server", "application/json", "max-age=86400"},
		{".well-known/Nodeinfo", "application/octet-stream", "max-age=86400"},
		{"autodisc/icons", "application/octet-stream", "max-age=604800"},
	} {
		got := classify(c.path)
		if got.ContentType != c.ctype || got.CacheControl != c.maxAgeOf {
			t.Errorf("classify(%q) = %q, %q; want %q, %q", c.path, got.ContentType, got.CacheControl, c.ctype, c.maxAgeOf)
		}
	}
}

func TestSymlinkHeaders(t *testing.T) {
	tr := tree.Tree{
		"robots.txt":           {Data: []byte("x")},
		"autodisc/robots.txt":  {Link: "../robots.txt"},
		"autodisc/chain.txt":   {Link: "robots.txt"},
		".well-known/gpc.json": {Data: []byte("{}")},
		"autodisc/gpc":         {Link: "../.well-known/gpc.json"},
		"autodisc/index.txt":   {Data: []byte("x")},
		"data.txt":             {Link: "autodisc/index.txt"},
	}
	for p, want := range map[string]profile{
		"autodisc/robots.txt": {ContentType: textPlain, CacheControl: oneDay},
		"autodisc/chain.txt":  {ContentType: textPlain, CacheControl: oneDay},
		"autodisc/gpc":        {ContentType: appJSON, CacheControl: oneDay},
		"data.txt":            {ContentType: textPlain, CacheControl: sevenDay},
	} {
		target, err := resolve(tr, p)
		if err != nil {
			t.Errorf("resolve(%q): %v", p, err)
			continue
		}
		if got := classify(target); got != want {
			t.Errorf("%s: headers of %s = %v, want %v", p, target, got, want)
		}
	}
	public, _, err := Render(tr, []Kind{Headers})
	if err != nil {
		t.Fatal(err)
	}
	rule := "/autodisc/gpc\n  Content-Type: application/json\n"
	if !strings.Contains(string(public[HeadersFile].Data), rule) {
		t.Errorf("_headers lacks %q:\n%s", rule, public[HeadersFile].Data)
	}
}

func TestSymlinkErrors(t *testing.T) {
	for name, c := range map[string]struct {
		tr      tree.Tree
		mention string
	}{
		"escape":   {tree.Tree{"autodisc/robots.txt": {Link: "../../robots.txt"}}, "leaves the tree"},
		"dotdot":   {tree.Tree{"a/b": {Link: "../.."}}, "leaves the tree"},
		"absolute": {tree.Tree{"autodisc/robots.txt": {Link: "/etc/passwd"}}, "absolute"},
		"loop":     {tree.Tree{"a.txt": {Link: "b.txt"}, "b.txt": {Link: "a.txt"}}, "symbolic links in a row"},
		"self":     {tree.Tree{"a.txt": {Link: "a.txt"}}, "symbolic links in a row"},
	} {
		t.Run(name, func(t *testing.T) {
			pub, sep, err := Render(c.tr, Kinds())
			if err == nil || !strings.Contains(err.Error(), c.mention) {
				t.Fatalf("error = %v, want one saying %q", err, c.mention)
			}
			if len(pub)+len(sep) != 0 {
				t.Errorf("rendered %q and %q despite the error", pub.Paths(), sep.Paths())
			}
		})
	}
}

func TestClash(t *testing.T) {
	for _, name := range []string{HeadersFile, HtaccessFile} {
		tr := sample()
		tr[name] = tree.Entry{Data: []byte("mine")}
		_, _, err := Render(tr, Kinds())
		if err == nil || !strings.Contains(err.Error(), name+": the tree already holds") {
			t.Errorf("tree holding %s: error = %v", name, err)
		}
	}
	// The separate files live outside the public tree: no clash.
	tr := sample()
	tr[NginxFile] = tree.Entry{Data: []byte("x")}
	if _, _, err := Render(tr, []Kind{Nginx}); err != nil {
		t.Errorf("tree holding %s: %v", NginxFile, err)
	}
}

func TestHostilePaths(t *testing.T) {
	hostile := []string{
		"a b.txt",              // space
		"a\tb.txt",             // tab
		`a"b.txt`,              // double quote
		"a'b.txt",              // single quote (ends the Apache expression string)
		"a`b.txt",              // backquote
		"a{b}.txt",             // braces: nginx blocks, Caddy placeholders
		"a;b.txt",              // nginx directive end
		"a#b.txt",              // comment, fragment
		"a?b.txt",              // query
		"a%41.txt",             // percent: escapes mean different things per server
		"a*.txt",               // wildcard in _headers and Caddy
		"a$1.txt",              // Apache expression back-reference
		"a<b>.txt",             // closes <If>
		"a[b].txt",             // brackets
		"a|b.txt",              // pipe
		"a^b.txt",              // caret
		"a\u00a0b.txt",         // no-break space
		"a\u200bb.txt",         // zero-width space
		"a\u202eb.txt",         // right-to-left override
		"a\u2028b.txt",         // line separator
		"a\u0085b.txt",         // next line (C1 control)
		"a\nb.txt",             // newline
		"a\x7fb.txt",           // DEL
		"a\xffb.txt",           // invalid UTF-8
		"a\\b.txt",             // backslash
		"/robots.txt",          // absolute
		"a/../robots.txt",      // dot segment
		"a//b.txt",             // empty segment
		"autodisc/x\r\n.txt",   // CR LF
		"x/autodisc/i\x00.txt", // NUL
	}
	for _, k := range Kinds() {
		for _, p := range hostile {
			tr := sample()
			tr[p] = tree.Entry{Data: []byte("x")}
			pub, sep, err := Render(tr, []Kind{k})
			var pe *PathError
			if !errors.As(err, &pe) {
				t.Errorf("%s: %q: error = %v, want a *PathError", k, p, err)
				continue
			}
			if pe.Kind != k || pe.Path != p {
				t.Errorf("%s: %q: PathError names %s and %q", k, p, pe.Kind, pe.Path)
			}
			if !strings.HasPrefix(err.Error(), string(k)+": cannot write ") {
				t.Errorf("%s: %q: message %q", k, p, err)
			}
			if len(pub)+len(sep) != 0 {
				t.Errorf("%s: %q: rendered %q %q despite the error", k, p, pub.Paths(), sep.Paths())
			}
		}
	}
}

func TestPathCharacters(t *testing.T) {
	// Accepted by every format.
	ok := []string{
		"~mak/autodisc/index.txt",
		"a-b_c.d~e/autodisc/x-contact.txt",
		".well-known/a!b&c(d)e+f,g=h@i",
		"日本/autodisc/description.txt",
		"über/autodisc/icons.txt",
	}
	for _, k := range Kinds() {
		for _, p := range ok {
			tr := tree.Tree{p: {Data: []byte("x")}}
			if _, _, err := Render(tr, []Kind{k}); err != nil {
				t.Errorf("%s: %q: %v", k, p, err)
			}
		}
	}
	// ":" starts a placeholder in _headers only.
	colon := tree.Tree{".well-known/a:b": {Data: []byte("x")}}
	for _, k := range Kinds() {
		_, _, err := Render(colon, []Kind{k})
		if (err != nil) != (k == Headers) {
			t.Errorf("%s: path with a colon: error = %v", k, err)
		}
	}
}

func TestAllProblemsReported(t *testing.T) {
	tr := tree.Tree{"a b": {}, "c d": {}, "e.txt": {Link: "/x"}}
	_, _, err := Render(tr, []Kind{Nginx, Caddy})
	if err == nil {
		t.Fatal("no error")
	}
	got := strings.Split(err.Error(), "\n")
	want := []string{
		`e.txt: symbolic link target "/x" is absolute`,
		`nginx: cannot write "a b": ' ' is not among the characters every format reads literally`,
		`nginx: cannot write "c d": ' ' is not among the characters every format reads literally`,
		`caddy: cannot write "a b": ' ' is not among the characters every format reads literally`,
		`caddy: cannot write "c d": ' ' is not among the characters every format reads literally`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("error lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestEscapedPath(t *testing.T) {
	for in, want := range map[string]string{
		"robots.txt":                    "/robots.txt",
		"café/autodisc/description.txt": "/caf%C3%A9/autodisc/description.txt",
		"日本":                            "/%E6%97%A5%E6%9C%AC",
		"~mak/a!b":                      "/~mak/a!b",
	} {
		if got := escapedPath(in); got != want {
			t.Errorf("escapedPath(%q) = %q, want %q", in, got, want)
		}
	}
}
