//go:build linux

package publish

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// busyTree writes a site of 40 tenants of 200 files each: every tenant's
// Apply has more than 64 files to write, so it writes them on output's
// writer goroutines, and a batch's roots are written at once.
func busyTree(t *testing.T, dir string) {
	t.Helper()
	site := `version: 1
site:
  url: https://isp.example/
delegations:
  - path: "~*"
    except: [x-isp.txt]
    tenants: "users/*/public_html/autodisc.yaml"
files:
  x-isp.txt: hosted
`
	if err := os.WriteFile(filepath.Join(dir, "site.yaml"), []byte(site), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		user := fmt.Sprintf("u%07d", i)
		tdir := filepath.Join(dir, "users", user, "public_html")
		if err := os.MkdirAll(tdir, 0o755); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "version: 1\npath: /~%s/\ndescription: user %[1]s\nfiles:\n", user)
		for j := range 200 {
			fmt.Fprintf(&b, "  x-f%04d.txt: file %d of %s\n", j, j, user)
		}
		if err := os.WriteFile(filepath.Join(tdir, "autodisc.yaml"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// busyRun builds a fresh busy tree as uid (0: this user) under wrap, and
// returns the files written and what the build said.
func busyRun(t *testing.T, bin string, wrap []string, uid int) (map[string]string, string, error) {
	t.Helper()
	dir, cmd := hostCmd(t, "discgen-writers-", busyTree, bin, wrap, uid, "--format", "text")
	defer os.RemoveAll(dir)
	out, runErr := cmd.CombinedOutput()
	files := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.IsDir() && (rel == ".discgen" || userLockDir(rel)):
			return filepath.SkipDir
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			files[rel] = string(data)
		}
		return nil
	})
	return files, string(out), runErr
}

// Twenty processes and threads as an unprivileged user, with the writers
// busy: each batch's roots written at once, each on output's writers,
// every one of them in a system call that holds a thread. The build
// sizes its appliers' batches to the limit and builds every tenant, as
// without the limit; counted at four threads an applier, it crashed in
// the runtime ("failed to create new OS thread") 6 runs of 6.
func TestHostThreadLimitBusyWriters(t *testing.T) {
	testenv.NeedsLong(t)
	testenv.NeedsRoot(t) // to run the build as a user of its own
	tool := testenv.NeedsTool(t, "prlimit", "util-linux")
	bin := discgenStatic(t)
	ref, out, err := busyRun(t, bin, nil, 0)
	if err != nil || !strings.Contains(out, "tenants: 40 built") {
		t.Fatalf("without limits: %v\n%s", err, tail(out, 2000))
	}
	if n := len(ref); n < 40*200 {
		t.Fatalf("without limits, %d files written, want more than %d", n, 40*200)
	}
	runs := 5
	passed := 0
	for i := range runs {
		files, out, err := busyRun(t, bin, []string{tool, "--nproc=20", "--"}, freeUID(t))
		switch {
		case err != nil || strings.Contains(out, "goroutine ") || strings.Contains(out, "fatal error"):
			t.Errorf("run %d: %v\n%s", i+1, err, crash(out))
		case !strings.Contains(out, "tenants: 40 built"):
			t.Errorf("run %d: not every tenant built:\n%s", i+1, tail(out, 2000))
		case len(files) != len(ref):
			t.Errorf("run %d: %d files, without limits %d", i+1, len(files), len(ref))
		default:
			same := true
			for p, data := range ref {
				if files[p] != data {
					t.Errorf("run %d: %s differs from the run without limits", i+1, p)
					same = false
					break
				}
			}
			if same {
				passed++
			}
		}
	}
	t.Logf("prlimit --nproc=20, writers busy: %d of %d runs as without limits", passed, runs)
}
