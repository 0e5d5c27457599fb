package adopt

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/sitebuild"
)

// TestRobotsWarnings checks that what is not carried over is reported at
// its line and kept in the manifest where it can be.
func TestRobotsWarnings(t *testing.T) {
	in := "# house rules\n" + // 1
		"Disallow: /orphan/\n" + // 2
		"User-agent: Googlebot/2.1\n" + // 3
		"Disallow: /%7Ejim/ # old home\n" + // 4
		"Clean-param: ref /a/\n" + // 5
		"Crawl-delay: soon\n" + // 6
		"User-agent: 123\n" + // 7
		"Disallow: /a$b\n" + // 8
		"Sitemap: https://www.example.org/s.xml\n"
	res, err := Robots("in.txt", []byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Diags {
		got = append(got, d.String())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		"in.txt:2:1: warning: Disallow: /orphan/ is outside any group",
		"in.txt:3:1: warning: User-agent: Googlebot/2.1 is not a product token; imported as Googlebot",
		"in.txt:4:1: warning: Disallow: /%7Ejim/ is read as /~jim/",
		"in.txt:5:1: warning: Clean-param is not part of RFC 9309: kept in the group's extensions",
		"in.txt:6:1: warning: Crawl-delay: soon is not a number: kept as a comment",
		"in.txt:7:1: warning: User-agent: 123 names no product token",
		"in.txt:8:1: warning: Disallow: /a$b: Google reads a \"$\" inside a pattern literally",
		"in.txt: warning: 2 comments are kept as YAML comments",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing warning %q in:\n%s", want, all)
		}
	}
	y := string(res.YAML)
	for _, want := range []string{
		"# house rules", "# old home (line 4, after Disallow: /%7Ejim/)", "# line 2, outside any group: Disallow: /orphan/",
		"# line 6, not carried over: Crawl-delay: soon", "- {field: Clean-param, value: ref /a/}",
		"names: [Googlebot]", "url: https://www.example.org/",
	} {
		if !strings.Contains(y, want) {
			t.Errorf("manifest lacks %q:\n%s", want, y)
		}
	}
	if len(res.Losses) != 2 {
		t.Errorf("losses = %v, want the lines 4 and 8", res.Losses)
	}
}

// TestRobotsRealTokens checks that a crawler's name with digits or dots is
// imported as written, with no loss: the built file carries the same
// User-agent line, which every reader reads as it read the input's. A
// version after the name is dropped with a warning.
func TestRobotsRealTokens(t *testing.T) {
	in := "User-agent: MJ12bot\n" + // 1
		"User-agent: *\n" + // 2
		"Disallow: /private/\n" + // 3
		"\n" +
		"User-agent: 360Spider\n" + // 5
		"User-agent: Microsoft.URL.Control\n" + // 6
		"Disallow: /\n" + // 7
		"\n" +
		"User-agent: mj12bot\n" + // 9
		"Disallow: /tmp/\n" + // 10
		"\n" +
		"User-agent: AI2Bot/1.0\n" + // 12
		"Disallow: /ai/\n"
	rebuilt, res := roundTrip(t, "in.txt", []byte(in))
	if len(res.Losses) != 0 {
		t.Errorf("losses = %v, want none", res.Losses)
	}
	var names []string
	for _, g := range res.Site.Agents {
		names = append(names, g.Names...)
	}
	if got, want := strings.Join(names, " "), "MJ12bot * 360Spider Microsoft.URL.Control AI2Bot"; got != want {
		t.Errorf("names %q, want %q\n%s", got, want, res.YAML)
	}
	for _, line := range []string{"User-agent: MJ12bot\n", "User-agent: 360Spider\n", "User-agent: Microsoft.URL.Control\n", "User-agent: AI2Bot\n"} {
		if !strings.Contains(rebuilt, line) {
			t.Errorf("built file lacks %q:\n%s", line, rebuilt)
		}
	}
	var warned []string
	for _, d := range res.Diags {
		if strings.Contains(d.Message, "User-agent") {
			warned = append(warned, d.String())
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "in.txt:12:1: warning: User-agent: AI2Bot/1.0 is not a product token; imported as AI2Bot") {
		t.Errorf("User-agent warnings %q, want one at line 12", warned)
	}
	// MJ12bot's two groups are merged, as for any name.
	for _, g := range res.Site.Agents {
		if slices.Contains(g.Names, "MJ12bot") && !(slices.Contains(g.Disallow, "/private/") && slices.Contains(g.Disallow, "/tmp/")) {
			t.Errorf("MJ12bot's groups not merged: %+v", g)
		}
	}
}

// TestReadFileRefusesFIFO checks that a named pipe is refused at once,
// not waited on.
func TestReadFileRefusesFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "robots.txt")
	testenv.Mkfifo(t, p)
	if _, err := ReadFile(p); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ReadFile(fifo) = %v, want a refusal", err)
	}
	big := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(big, make([]byte, MaxFile+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("ReadFile(big) = %v, want a size refusal", err)
	}
}

// TestDirRefusesEscapes checks that a tree's symbolic links cannot lead
// import outside the directory.
func TestDirRefusesEscapes(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(secret, []byte("User-agent: *\nDisallow: /secret/\n"), 0o644)
	if err := os.Symlink(secret, filepath.Join(dir, "robots.txt")); err != nil {
		t.Fatal(err)
	}
	res, err := Dir(dir, Options{SiteURL: "https://www.example.org/"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(res.YAML), "/secret/") {
		t.Errorf("a symbolic link out of the tree was followed:\n%s", res.YAML)
	}
	if !slices.ContainsFunc(res.Diags, func(d diag.Diagnostic) bool {
		return strings.HasSuffix(d.Pos.File, "robots.txt") && strings.Contains(d.Message, "not read")
	}) {
		t.Errorf("diagnostics = %v, want robots.txt reported as not read", res.Diags)
	}
}

// TestFetch serves a built site over HTTP and imports it: robots.txt
// alone, then with Site every discovery file, which must rebuild the
// same tree.
func TestFetch(t *testing.T) {
	res, diags := sitebuild.Build(sitebuild.Options{Manifest: "../examples/site.yaml", Now: goldenNow})
	if res == nil {
		t.Fatal(diags)
	}
	dir := t.TempDir()
	writeTree(t, dir, res.Tree)
	var requests []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests = append(requests, r.URL.Path)
		http.FileServer(http.Dir(dir)).ServeHTTP(w, r)
	}))
	defer srv.Close()

	robots, err := Fetch(context.Background(), srv.URL+"/some/page", FetchOptions{}, Options{SiteURL: "https://www.fict.org/", Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	if len(requests) != 1 || requests[0] != "/robots.txt" {
		t.Errorf("requests = %v, want only /robots.txt", requests)
	}
	if !strings.Contains(string(robots.YAML), "names: [unhipbot]") || strings.Contains(string(robots.YAML), "security_txt") {
		t.Errorf("robots.txt import:\n%s", robots.YAML)
	}

	site, err := Fetch(context.Background(), srv.URL, FetchOptions{Site: true}, Options{SiteURL: "https://www.fict.org/", Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	mf := filepath.Join(t.TempDir(), "site.yaml")
	os.WriteFile(mf, site.YAML, 0o644)
	again, diags := sitebuild.Build(sitebuild.Options{Manifest: mf, Now: goldenNow})
	if again == nil {
		t.Fatalf("%v\n%s", diags, site.YAML)
	}
	// The RSL document is the site's own file, published from
	// license.source, which import does not write: the licence's URL
	// comes back, the document stays where it is.
	if l := again.Doc.Value.License; l == nil || l.URL != "https://www.fict.org/license.xml" || l.Source != "" {
		t.Errorf("license = %+v, want the URL alone\n%s", l, site.YAML)
	}
	delete(res.Tree, "license.xml")
	compareTrees(t, res.Tree, again.Tree)
}

// TestDirForeignTree imports a tree discgen did not write and checks what
// is reported: a signed security.txt, a file index.txt lists but the tree
// lacks, a name no manifest defines, an x- file with CR LF line ends, a
// FIFO (refused without blocking), binary well-known content, and an
// autodisc/robots.txt that is not /robots.txt.
func TestDirForeignTree(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"robots.txt":                "User-agent: *\nDisallow: /tmp/\n",
		"autodisc/index.txt":        "description.txt\nmissing.txt\nnotes.txt\nx-crlf.txt\nrobots.txt\nx-fifo.txt\n",
		"autodisc/description.txt":  "A site\n",
		"autodisc/notes.txt":        "hello\n",
		"autodisc/x-crlf.txt":       "a\r\nb\r\n",
		"autodisc/robots.txt":       "User-agent: *\nDisallow: /\n",
		".well-known/security.txt":  "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\n\nContact: mailto:s@example.org\nExpires: 2027-06-01T00:00:00Z\nCanonical: https://www.example.org/.well-known/security.txt\n-----BEGIN PGP SIGNATURE-----\nxyz\n-----END PGP SIGNATURE-----\n",
		".well-known/blob":          "\xff\xfe",
		".well-known/matrix/server": `{"m.server": "m.example.org:443"}`,
	}
	for p, c := range files {
		f := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testenv.Mkfifo(t, filepath.Join(dir, "autodisc", "x-fifo.txt"))
	res, err := Dir(dir, Options{Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Diags {
		got = append(got, strings.TrimPrefix(d.String(), dir+"/"))
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		".well-known/blob: warning: is not UTF-8 text",
		".well-known/security.txt:1:1: warning: the OpenPGP signature is not carried over",
		"autodisc/index.txt: warning: lists missing.txt, which is not in the tree",
		"autodisc/notes.txt: warning: is not a file a manifest defines",
		"autodisc/robots.txt: warning: differs from /robots.txt",
		"autodisc/x-crlf.txt: warning: blank lines, carriage returns or a missing final line end are not kept",
		"autodisc/x-fifo.txt: warning: not read: is not a regular file",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
	y := string(res.YAML)
	for _, want := range []string{"url: https://www.example.org/", "name: matrix/server", "contact: ['mailto:s@example.org']", "description: A site"} {
		if !strings.Contains(y, want) {
			t.Errorf("manifest lacks %q:\n%s", want, y)
		}
	}
	if strings.Contains(y, "canonical:") {
		t.Errorf("the default Canonical is written:\n%s", y)
	}
}

// TestDirDelegationLoop bounds the directories read when symbolic links
// lead delegations back to where they started.
func TestDirDelegationLoop(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "autodisc"), 0o755)
	os.WriteFile(filepath.Join(dir, "autodisc", "index.txt"), []byte("subdirectories.txt\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "autodisc", "subdirectories.txt"), []byte("/a/\n/b/\n/c/\n"), 0o644)
	for _, n := range []string{"a", "b", "c"} {
		if err := os.Symlink(".", filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Dir(dir, Options{SiteURL: "https://www.example.org/"})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range res.Diags {
		found = found || strings.Contains(d.Message, "more than 1000 autodisc directories")
	}
	if !found {
		t.Errorf("no warning about the bound: %v", res.Diags)
	}
}

// TestFetchRefuses checks the answers Fetch does not import: a missing
// robots.txt, a server error, a body over the limit, endless redirects.
func TestFetchRefuses(t *testing.T) {
	for _, c := range []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"missing", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }, "/robots.txt: not found"},
		{"server error", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "oops", 500) }, "/robots.txt: 500 Internal Server Error"},
		{"too large", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("User-agent: *\n"))
			w.Write(make([]byte, MaxFile))
		}, "larger than the limit of 4 MiB"},
		{"redirects", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, r.URL.Path+"x", http.StatusFound) }, "more than 5 redirects"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.handler)
			defer srv.Close()
			_, err := Fetch(context.Background(), srv.URL, FetchOptions{}, Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
	// With --site a missing robots.txt is not an error: the other files
	// are imported.
	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/gpc.json" {
			w.Write([]byte(`{"gpc": true}`))
			return
		}
		http.NotFound(w, r)
	}))
	defer srv2.Close()
	res, err := Fetch(context.Background(), srv2.URL, FetchOptions{Site: true}, Options{SiteURL: "https://www.example.org/"})
	if err != nil || !strings.Contains(string(res.YAML), "name: gpc.json") {
		t.Errorf("import --site without robots.txt: %v\n%v", err, res)
	}
}
