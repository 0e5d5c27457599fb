package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// The control panel's path on a shared host: each user's save runs
// "discgen build --tenant FILE" at once, beside other saves (of other
// users and of the same user) and beside a full build. Every one of them
// must succeed, and every tenant's files must end as its last saved
// manifest says. The real discgen runs as separate processes (this test
// binary, under the name discgen), so the locks and the journal's
// recovery are those between builds.

const (
	concTenants = 300             // tenants of the site
	concSavers  = 6               // saves running at once beside the full build
	concSaves   = 3               // saves per saver and round
	concRounds  = 6               // rounds at most
	concTime    = 4 * time.Second // no round starts after this, past the second
)

// concSite writes a site delegating to concTenants tenant manifests.
func concSite(t *testing.T, dir string) {
	t.Helper()
	site := `version: 1
site:
  url: https://isp.example/
  description: A shared host
delegations:
  - path: "~*"
    tenants: "users/*/public_html/autodisc.yaml"
`
	if err := os.WriteFile(filepath.Join(dir, "site.yaml"), []byte(site), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range concTenants {
		if err := os.MkdirAll(filepath.Dir(concManifest(dir, i)), 0o755); err != nil {
			t.Fatal(err)
		}
		concSave(t, dir, i, "first")
	}
}

func concManifest(dir string, i int) string {
	return filepath.Join(dir, "users", fmt.Sprintf("u%04d", i), "public_html", "autodisc.yaml")
}

// concSave saves tenant i's manifest with description desc as an editor
// or a control panel does: a new file renamed over the old one.
func concSave(t *testing.T, dir string, i int, desc string) {
	name := concManifest(dir, i)
	body := fmt.Sprintf("version: 1\npath: /~u%04d/\ndescription: %s\nfeeds:\n  - url: feed.atom\n", i, desc)
	tmp := name + ".save"
	if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
		t.Error(err)
		return
	}
	if err := os.Rename(tmp, name); err != nil {
		t.Error(err)
	}
}

// concRun runs discgen in dir and returns its exit status and output.
func concRun(exe, dir string, args ...string) (int, string, string) {
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		code = -1
		stderr.WriteString(err.Error())
	}
	return code, stdout.String(), stderr.String()
}

// saveOutput is all a save prints: its tenant's line when it wrote
// something, and the count.
var saveOutput = regexp.MustCompile(`\A(users/u\d{4}/public_html: \d+ added, \d+ updated, \d+ removed, \d+ unchanged\n)?tenants: [01] built, [01] unchanged, 0 refused, 0 skipped\n\z`)

func TestConcurrentSavesBesideFullBuild(t *testing.T) {
	testenv.NeedsLong(t) // starts hundreds of builds
	concurrentSaves(t, nil)
}

// The same on a shared host, where root's builds give each tenant's
// state to its owner (--tenant-owner), who could hold the lock of its
// journal directory: root's saves and full builds still wait for each
// other rather than take each other's hold for the owner's, and defer
// no tenant.
func TestConcurrentRootSavesOfOwnedTenants(t *testing.T) {
	testenv.NeedsLong(t) // starts hundreds of builds
	testenv.NeedsRoot(t) // gives the tenants' directories to another user
	concurrentSaves(t, []string{"--tenant-owner"})
}

// concurrentSaves runs the full builds and saves, all with the
// arguments more; with --tenant-owner, every tenant's directory is
// first given to the user nobody.
func concurrentSaves(t *testing.T, more []string) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(t.TempDir(), "discgen")
	testenv.Symlink(t, self, exe)
	dir := t.TempDir()
	concSite(t, dir)
	if slices.Contains(more, "--tenant-owner") {
		for i := range concTenants {
			if err := os.Chown(filepath.Dir(concManifest(dir, i)), 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}
	}
	full := append([]string{"build", "-f", "site.yaml", "-o", "public"}, more...)
	if code, _, stderr := concRun(exe, dir, full...); code != 0 {
		t.Fatalf("first build: exit %d\n%s", code, stderr)
	}
	start := time.Now()
	saves := 0
	for round := 1; round <= concRounds && (round <= 2 || time.Since(start) < concTime); round++ {
		// Every manifest changes, so that the full build rewrites every
		// tenant, in several batches, while the saves run.
		for i := range concTenants {
			concSave(t, dir, i, fmt.Sprintf("round %d", round))
		}
		done := make(chan string, 1)
		go func() {
			code, stdout, stderr := concRun(exe, dir, full...)
			if code != 0 || stderr != "" || !strings.Contains(stdout, " 0 refused, 0 skipped\n") {
				done <- fmt.Sprintf("round %d: full build: exit %d\n%s%s", round, code, stderr, lastLine(stdout))
			}
			close(done)
		}()
		var wg sync.WaitGroup
		var mu sync.Mutex
		for s := range concSavers {
			wg.Go(func() {
				for k := range concSaves {
					// One tenant every saver saves, and others at
					// random.
					i := 7
					if k > 0 {
						i = rand.IntN(concTenants)
					}
					mu.Lock()
					concSave(t, dir, i, fmt.Sprintf("round %d saver %d save %d", round, s, k))
					saves++
					mu.Unlock()
					code, stdout, stderr := concRun(exe, dir, append([]string{"build", "-f", "site.yaml", "--tenant", concManifest(dir, i)}, more...)...)
					if code != 0 || stderr != "" || !saveOutput.MatchString(stdout) {
						t.Errorf("round %d: save of u%04d: exit %d\nstdout:\n%sstderr:\n%s", round, i, code, stdout, stderr)
					}
				}
			})
		}
		wg.Wait()
		if msg, failed := <-done; failed {
			t.Error(msg)
		}
		// Every tenant's files say what its last saved manifest says.
		for i := range concTenants {
			data, err := os.ReadFile(concManifest(dir, i))
			if err != nil {
				t.Fatal(err)
			}
			_, desc, _ := strings.Cut(string(data), "description: ")
			desc, _, _ = strings.Cut(desc, "\n")
			got, err := os.ReadFile(filepath.Join(filepath.Dir(concManifest(dir, i)), "autodisc", "description.txt"))
			if err != nil || string(got) != desc+"\n" {
				t.Errorf("round %d: u%04d/autodisc/description.txt = %q, %v; its manifest says %q", round, i, got, err, desc)
			}
		}
		if t.Failed() {
			break
		}
	}
	t.Logf("%d saves beside full builds in %v", saves, time.Since(start).Round(time.Millisecond))
	// Nothing is left for a recovery: every journal went with its build
	// (the site's lock file stays).
	js, _ := filepath.Glob(filepath.Join(dir, ".discgen", "journal", "*"))
	own, _ := filepath.Glob(filepath.Join(dir, ".discgen", "own", "*", "*", "*.jnl"))
	js = slices.DeleteFunc(append(js, own...), func(p string) bool { return strings.HasSuffix(p, ".lock") })
	if len(js) > 0 {
		t.Errorf("journals left: %v", js)
	}
}

func lastLine(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return s[strings.LastIndex(s, "\n")+1:] + "\n"
}
