package output

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/output/internal/record"
	"github.com/discgen/discgen/tree"
)

// copyTree copies dir to dst as a clone would: new inodes, new mtimes,
// symlinks kept as symlinks.
func copyTree(t *testing.T, dir, dst string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A repository commits its output and its state directory; a clone on
// another path (another machine) rebuilds without Replace, and with the
// state directory lost, a check still shows the whole diff and names the
// files a build would refuse.
func TestFreshClone(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	v1 := files("robots.txt", "User-agent: *\nDisallow: /a\n", "autodisc/index.txt", "description.txt\n",
		"autodisc/description.txt", "first\n", "autodisc/old.txt", "gone soon\n")
	v1["autodisc/robots.txt"] = tree.Entry{Link: "../robots.txt"}
	// The CLI's layout: public/ and .discgen/ beside the manifest.
	opt := Options{StateDir: filepath.Join(repo, ".discgen"), NoSync: true, Key: "k1"}
	if _, _, err := Write(filepath.Join(repo, "public"), v1, opt); err != nil {
		t.Fatal(err)
	}
	// The state directory's own .gitignore keeps the machine-local cache
	// out of a commit and the record in it.
	ign := mustRead(t, filepath.Join(repo, ".discgen", ".gitignore"))
	if !strings.Contains(ign, "*.stat") || strings.Contains(ign, "*.rec") {
		t.Errorf(".discgen/.gitignore:\n%s", ign)
	}
	var recs []string
	filepath.WalkDir(filepath.Join(repo, ".discgen"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".rec") {
			data, _ := os.ReadFile(p)
			recs = append(recs, string(data))
		}
		return err
	})
	if len(recs) != 1 || strings.Contains(recs[0], base) {
		t.Fatalf("records %q: want one, without a machine path", recs)
	}

	v2 := files("robots.txt", "User-agent: *\nDisallow: /b\n", "autodisc/index.txt", "description.txt\nx-new.txt\n",
		"autodisc/description.txt", "first\n", "autodisc/x-new.txt", "new\n")
	v2["autodisc/robots.txt"] = tree.Entry{Link: "../robots.txt"}

	// A clone with the state directory: the build updates.
	clone := filepath.Join(base, "elsewhere", "clone")
	copyTree(t, repo, clone)
	copt := opt
	copt.StateDir = filepath.Join(clone, ".discgen")
	if ok, _ := Fresh(filepath.Join(clone, "public"), copt); ok {
		t.Error("a copied stat cache was trusted")
	}
	c, res, err := Write(filepath.Join(clone, "public"), v2, copt)
	if err != nil {
		t.Fatalf("build in a clone: %v", err)
	}
	if res.Updated != 2 || res.Added != 1 || res.Removed != 1 || res.Unchanged != 2 {
		t.Errorf("build in a clone: %+v\n%s", res, kinds(c))
	}
	for p, e := range v2 {
		if e.Link == "" && mustRead(t, filepath.Join(clone, "public", filepath.FromSlash(p))) != string(e.Data) {
			t.Errorf("clone: %s not updated", p)
		}
	}
	// The record written there equals the one a build in the original
	// place writes: committing it gives no churn.
	if _, _, err := Write(filepath.Join(repo, "public"), v2, opt); err != nil {
		t.Fatal(err)
	}
	name := filepath.FromSlash(record.Base("public") + ".rec")
	if a, b := mustRead(t, filepath.Join(repo, ".discgen", name)), mustRead(t, filepath.Join(clone, ".discgen", name)); a != b {
		t.Errorf("records differ between checkouts:\n%s\n%s", a, b)
	}

	// A clone without the state directory: the check shows everything
	// and names what a build would refuse.
	bare := filepath.Join(base, "bare")
	copyTree(t, filepath.Join(base, "elsewhere", "clone"), bare) // holds v2
	os.RemoveAll(filepath.Join(bare, ".discgen"))
	v3 := files("robots.txt", "User-agent: *\nDisallow: /c\n", "autodisc/index.txt", "description.txt\n",
		"autodisc/description.txt", "first\n")
	v3["autodisc/robots.txt"] = tree.Entry{Link: "../robots.txt"}
	bopt := Options{StateDir: filepath.Join(bare, ".discgen"), NoSync: true}
	c, err = Plan(filepath.Join(bare, "public"), v3, bopt)
	if err != nil {
		t.Fatal(err)
	}
	var diff bytes.Buffer
	if err := c.UnifiedDiff(&diff); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"--- a/autodisc/index.txt\n+++ b/autodisc/index.txt\n", "-x-new.txt\n",
		"--- a/robots.txt\n+++ b/robots.txt\n", "-Disallow: /b\n+Disallow: /c\n",
	} {
		if !strings.Contains(diff.String(), want) {
			t.Errorf("diff lacks %q:\n%s", want, diff.String())
		}
	}
	got := problems(t, c.Err())
	if want := []string{"foreign file autodisc/index.txt", "foreign file robots.txt"}; !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
	// Nothing was written by planning, and a build refuses.
	if _, err := c.Apply(); err == nil {
		t.Error("build without state took over foreign files")
	}
	if mustRead(t, filepath.Join(bare, "public", "robots.txt")) != "User-agent: *\nDisallow: /b\n" {
		t.Error("robots.txt written")
	}
}
