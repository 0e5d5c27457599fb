package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/autodisc"
	"github.com/discgen/discgen/internal/testing/testenv"
)

// builtTree builds a site with a "~*" tenant delegation (only-list), an
// inline /projects/ (except-list) and alice's tenant manifest, adds a
// hand-written autodisc directory for alice's blog, and returns the output
// directory.
func builtTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	public := filepath.Join(dir, "public")
	write := func(rel, data string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("site.yaml", `version: 1
site:
  url: https://fict.org/
  description: Fictional Org
agents:
  - names: ["*"]
    disallow: [/private/]
icons: [/favicon.ico]
feeds: [{url: /news.atom}]
delegations:
  - path: "~*"
    only: [icons.txt, description.txt, feeds.txt]
    tenants: "public/~*/autodisc.yaml"
  - path: /projects/
    except: [robots.txt]
    inline:
      description: Fict.org projects
files:
  x-contact.txt: "webmaster@fict.org"
`)
	write("public/~alice/autodisc.yaml", `version: 1
path: /~alice/
description: Alice's notes
feeds: [{url: /~alice/feed.atom}]
delegations:
  - {path: blog/, only: [feeds.txt]}
`)
	var stdout, stderr bytes.Buffer
	if err := run([]string{"build", "-f", filepath.Join(dir, "site.yaml"), "-o", public}, &stdout, &stderr); err != nil {
		t.Fatalf("build: %v\n%s", err, stderr.String())
	}
	write("public/~alice/blog/autodisc/index.txt", "description.txt\r\nfeeds.txt\r\n")
	write("public/~alice/blog/autodisc/feeds.txt", "https://fict.org/~alice/blog.atom\r\n")
	write("public/~alice/blog/autodisc/description.txt", "not alice's to give\r\n")
	return public
}

func resolveCmd(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	err = dispatch(&call{stdout: &o, stderr: &e}, append([]string{"resolve"}, args...))
	report(&e, err)
	return o.String(), e.String(), err
}

func TestResolveCommandText(t *testing.T) {
	public := builtTree(t)
	tests := []struct {
		path   string
		stdout string
		// stderr is "" or one warning line, "START | END": the line
		// begins with START and ends with END.
		stderr string
	}{
		{"/index.html", `authority / (DIR/autodisc)
description.txt  /
feeds.txt  /
icons.txt  /
robots.txt  /
subdirectories.txt  /
x-contact.txt  /
`, ""},
		{"/~alice/notes.html", `authority / (DIR/autodisc)
authority /~alice/ (DIR/~alice/autodisc)
description.txt  /~alice/
feeds.txt  /~alice/
icons.txt  undefined (/~alice/ has no icons.txt)
robots.txt  undefined (not delegated: only-list of /)
subdirectories.txt  /~alice/
x-contact.txt  undefined (not delegated: only-list of /)
`, ""},
		{"/~alice/blog/post.html", `authority / (DIR/autodisc)
authority /~alice/ (DIR/~alice/autodisc)
authority /~alice/blog/ (DIR/~alice/blog/autodisc)
description.txt  undefined (not delegated: only-list of /~alice/)
feeds.txt  /~alice/blog/
icons.txt  undefined (not delegated: only-list of /~alice/)
robots.txt  undefined (not delegated: only-list of /~alice/)
subdirectories.txt  undefined (/~alice/blog/ has no subdirectories.txt)
x-contact.txt  undefined (not delegated: only-list of /~alice/)
`, "DIR/~alice/blog/autodisc/description.txt: warning: | ignored: not delegated to /~alice/blog/, which has authority for feeds.txt subdirectories.txt (only-list of /~alice/)"},
		{"https://fict.org/projects/a/b", `authority / (DIR/autodisc)
authority /projects/ (DIR/projects/autodisc)
description.txt  /projects/
feeds.txt  undefined (/projects/ has no feeds.txt; not inherited from /: a delegated file the delegatee lacks is undefined (seed 000 section 4.2), read over the except paragraph's "inherited")
icons.txt  undefined (/projects/ has no icons.txt; not inherited from /: a delegated file the delegatee lacks is undefined (seed 000 section 4.2), read over the except paragraph's "inherited")
robots.txt  /  (excepted by /)
subdirectories.txt  undefined (/projects/ has no subdirectories.txt)
x-contact.txt  undefined (/projects/ has no x-contact.txt; not inherited from /: a delegated file the delegatee lacks is undefined (seed 000 section 4.2), read over the except paragraph's "inherited")
`, ""},
		{"/~bob/", `authority / (DIR/autodisc)
authority /~bob/ (DIR/~bob/autodisc: not found)
description.txt  undefined (/~bob/ is not read: not found)
feeds.txt  undefined (/~bob/ is not read: not found)
icons.txt  undefined (/~bob/ is not read: not found)
robots.txt  undefined (not delegated: only-list of /)
subdirectories.txt  undefined (/~bob/ is not read: not found)
x-contact.txt  undefined (not delegated: only-list of /)
`, "DIR/autodisc/subdirectories.txt:1:1: warning: | delegation /~*/: the autodisc directory of /~bob/ is not found: the files delegated to it are undefined"},
	}
	for _, tt := range tests {
		stdout, stderr, err := resolveCmd(t, "-o", public, tt.path)
		if err != nil {
			t.Errorf("%s: %v", tt.path, err)
		}
		stdout = strings.ReplaceAll(stdout, public, "DIR")
		stderr = strings.ReplaceAll(stderr, public, "DIR")
		if stdout != tt.stdout {
			t.Errorf("%s: stdout\n%s\nwant\n%s", tt.path, stdout, tt.stdout)
		}
		start, end, _ := strings.Cut(tt.stderr, " | ")
		line, rest, _ := strings.Cut(stderr, "\n")
		if tt.stderr == "" && stderr != "" || tt.stderr != "" && (rest != "" || !strings.HasPrefix(line, start) || !strings.HasSuffix(line, end)) {
			t.Errorf("%s: stderr\n%s\nwant\n%s", tt.path, stderr, tt.stderr)
		}
	}
}

func TestResolveCommandJSON(t *testing.T) {
	public := builtTree(t)
	stdout, stderr, err := resolveCmd(t, "--output", public, "--format", "json", "/~alice/blog/x")
	if err != nil || stderr != "" {
		t.Fatalf("err %v, stderr %q", err, stderr)
	}
	var doc autodisc.JSON
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if doc.Path != "/~alice/blog/x" || len(doc.Chain) != 3 {
		t.Fatalf("doc %+v", doc)
	}
	alice := doc.Chain[1]
	if alice.Space != "/~alice/" || alice.Dir != filepath.Join(public, "~alice", "autodisc") || !alice.Read ||
		alice.Delegation != "/~*/" || alice.Line != 1 || strings.Join(alice.Only, " ") != "icons.txt description.txt feeds.txt" ||
		alice.Except != nil || alice.Granted != "description.txt feeds.txt icons.txt subdirectories.txt" {
		t.Errorf("alice %+v", alice)
	}
	if root := doc.Chain[0]; root.Delegation != "" || root.Only != nil || root.Granted != "every file" || len(root.Files) != 7 {
		t.Errorf("root %+v", root)
	}
	files := map[string]autodisc.JSONFile{}
	for _, f := range doc.Files {
		files[f.Name] = f
	}
	if f := files["feeds.txt"]; f.Authority == nil || *f.Authority != "/~alice/blog/" || !f.Defined || f.Reason != "" {
		t.Errorf("feeds.txt %+v", f)
	}
	if f := files["icons.txt"]; f.Authority != nil || f.Defined || f.Reason != "not delegated: only-list of /~alice/" {
		t.Errorf("icons.txt %+v", f)
	}
	if len(doc.Warnings) != 1 || doc.Warnings[0].Code != "not-delegated" ||
		doc.Warnings[0].File != filepath.Join(public, "~alice", "blog", "autodisc", "description.txt") {
		t.Errorf("warnings %+v", doc.Warnings)
	}
	if !strings.Contains(stdout, `"authority": null`) || !strings.Contains(stdout, `"except": null`) {
		t.Errorf("null fields missing:\n%s", stdout)
	}
}

func TestResolveCommandErrors(t *testing.T) {
	public := builtTree(t)
	empty := t.TempDir()
	tests := []struct {
		args   []string
		code   int
		stderr string // a line stderr must have
	}{
		{[]string{"-o", empty, "/x"}, 1, "discgen: error: " + filepath.Join(empty, "autodisc") + ": no autodisc directory"},
		{[]string{"-o", empty, "/x"}, 1, "discgen: hint: build the tree first: discgen build -o " + empty},
		{[]string{"-o", filepath.Join(empty, "nope"), "/x"}, 1, "discgen: error: " + filepath.Join(empty, "nope", "autodisc") + ": no autodisc directory"},
		{[]string{"-o", public}, 2, "discgen: error: resolve: give one URL path, such as /~alice/blog/post.html"},
		{[]string{"-o", public, "/a", "/b"}, 2, "discgen: error: resolve: give one URL path, such as /~alice/blog/post.html"},
		{[]string{"-o", public, "a/b"}, 2, `discgen: error: resolve: "a/b" is not a URL path: give one beginning with "/", or an absolute URL`},
		{[]string{"-o", public, "--format", "xml", "/"}, 2, `discgen: error: --format "xml": use text, json`},
		{[]string{"--bogus", "/"}, 2, "discgen: hint: run 'discgen resolve -h' for usage"}, // as the command line prints it
	}
	for _, tt := range tests {
		stdout, stderr, err := resolveCmd(t, tt.args...)
		if got := exitCode(err); got != tt.code {
			t.Errorf("%q: exit %d, want %d (%v)", tt.args, got, tt.code, err)
		}
		if !strings.Contains("\n"+stderr, "\n"+tt.stderr+"\n") {
			t.Errorf("%q: stderr\n%s\nwant a line %q", tt.args, stderr, tt.stderr)
		}
		if stdout != "" {
			t.Errorf("%q: stdout %q", tt.args, stdout)
		}
	}

	// -h prints the usage and succeeds.
	stdout, _, err := resolveCmd(t, "-h")
	if err != nil || stdout != commandUsage("resolve") {
		t.Errorf("-h: %v, stdout %q", err, stdout)
	}
}

// A link out of the tree is not followed.
func TestResolveCommandConfined(t *testing.T) {
	public := builtTree(t)
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(outside, "autodisc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "autodisc", "feeds.txt"), []byte("https://evil.example/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	testenv.Symlink(t, outside, filepath.Join(public, "~mallory"))
	stdout, stderr, err := resolveCmd(t, "-o", public, "/~mallory/x")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "\nfeeds.txt  undefined (") || strings.Contains(stdout, "feeds.txt  /~mallory/") {
		t.Errorf("stdout\n%s", stdout)
	}
	if !strings.Contains(stderr, "~mallory") {
		t.Errorf("stderr %q", stderr)
	}
}
