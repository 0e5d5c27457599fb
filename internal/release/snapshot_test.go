package release

import (
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// tmpRoot holds what the tests of this package build; TestMain removes it.
var tmpRoot string

func TestMain(m *testing.M) {
	var err error
	if tmpRoot, err = os.MkdirTemp("", "discgen-release-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(tmpRoot)
	os.Exit(code)
}

// goreleaserPath finds GoReleaser: $DISCGEN_GORELEASER, then PATH, then
// where .ci/run installs it.
func goreleaserPath() string {
	if p := os.Getenv("DISCGEN_GORELEASER"); p != "" {
		return p
	}
	if p, err := exec.LookPath("goreleaser"); err == nil {
		return p
	}
	if p, err := filepath.Abs("../../.ci/tools/bin/goreleaser"); err == nil {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// release is a snapshot release built in a clone of the repository.
type release struct {
	dir     string // the clone
	dist    string // its dist/
	version string // 0.0.1-snapshot
	commit  string // the clone's HEAD
}

func (r release) archive(goos, goarch string) string {
	ext := ".tar.gz"
	if goos == "windows" {
		ext = ".zip"
	}
	return "discgen_" + r.version + "_" + goos + "_" + goarch + ext
}

// buildRelease clones the repository into dir, checks out commit (HEAD
// when empty) and builds a snapshot release there, with env added to the
// environment.
func buildRelease(dir, commit string, env ...string) (release, error) {
	gr := goreleaserPath()
	root, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return release{}, fmt.Errorf("git rev-parse: %v", err)
	}
	if out, err := exec.Command("git", "clone", "-q", "--no-hardlinks", strings.TrimSpace(string(root)), dir).CombinedOutput(); err != nil {
		return release{}, fmt.Errorf("git clone: %v\n%s", err, out)
	}
	if commit != "" {
		if out, err := exec.Command("git", "-C", dir, "checkout", "-q", "--detach", commit).CombinedOutput(); err != nil {
			return release{}, fmt.Errorf("git checkout %s: %v\n%s", commit, err, out)
		}
	}
	head, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return release{}, err
	}
	cmd := exec.Command(gr, "release", "--snapshot", "--clean")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return release{}, fmt.Errorf("goreleaser release --snapshot: %v\n%s", err, out)
	}
	r := release{dir: dir, dist: filepath.Join(dir, "dist"), commit: strings.TrimSpace(string(head))}
	sums, err := os.ReadFile(filepath.Join(r.dist, "checksums.txt"))
	if err != nil {
		return release{}, err
	}
	m := regexp.MustCompile(`discgen_(\S+)_linux_amd64\.tar\.gz`).FindSubmatch(sums)
	if m == nil {
		return release{}, fmt.Errorf("checksums.txt names no linux amd64 archive:\n%s", sums)
	}
	r.version = string(m[1])
	return r, nil
}

var snap struct {
	once sync.Once
	r    release
	err  error
}

// snapshot returns the snapshot release the tests share, built once; its
// tests are of the long tier, and need git and goreleaser.
func snapshot(t *testing.T) release {
	t.Helper()
	testenv.NeedsLong(t)
	testenv.NeedsTool(t, "git", "apt-get install git")
	if goreleaserPath() == "" {
		testenv.Missing(t, "goreleaser: not installed (.ci/run installs it into .ci/tools/bin)")
	}
	snap.once.Do(func() {
		snap.r, snap.err = buildRelease(filepath.Join(tmpRoot, "a", "discgen"), "")
	})
	if snap.err != nil {
		t.Fatal(snap.err)
	}
	return snap.r
}

// The release configuration is valid as GoReleaser reads it.
func TestReleaseConfig(t *testing.T) {
	testenv.NeedsLong(t)
	gr := goreleaserPath()
	if gr == "" {
		testenv.Missing(t, "goreleaser: not installed (.ci/run installs it into .ci/tools/bin)")
	}
	cmd := exec.Command(gr, "check", "--config", "../../.goreleaser.yaml")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("goreleaser check: %v\n%s", err, out)
	}
}

// A snapshot release has an archive per platform with the binary, the
// licence and the README, an SBOM per binary, and a checksums file naming
// them all; the Linux binaries are static, and the binary says its
// version and commit.
func TestSnapshotRelease(t *testing.T) {
	r := snapshot(t)
	sums, err := os.ReadFile(filepath.Join(r.dist, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var listing strings.Builder
	for _, goos := range []string{"linux", "darwin", "windows"} {
		for _, goarch := range []string{"amd64", "arm64"} {
			for _, name := range []string{r.archive(goos, goarch), "discgen_" + r.version + "_" + goos + "_" + goarch + ".cdx.json"} {
				fi, err := os.Stat(filepath.Join(r.dist, name))
				if err != nil {
					t.Error(err)
					continue
				}
				fmt.Fprintf(&listing, "%10d %s\n", fi.Size(), name)
				if !regexp.MustCompile(`(?m)^[0-9a-f]{64}  ` + regexp.QuoteMeta(name) + `$`).Match(sums) {
					t.Errorf("checksums.txt does not name %s", name)
				}
			}
		}
	}
	t.Logf("snapshot release %s at %s:\n%s", r.version, r.commit, listing.String())

	bin := filepath.Join(t.TempDir(), "discgen")
	if out, err := exec.Command("tar", "-xzf", filepath.Join(r.dist, r.archive("linux", "amd64")), "-C", filepath.Dir(bin)).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	for _, f := range []string{"LICENSE", "README.md"} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(bin), f)); err != nil {
			t.Errorf("archive: %v", err)
		}
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "discgen "+r.version+" commit "+r.commit+" go1.") {
		t.Errorf("discgen version: %q, want version %s and commit %s", out, r.version, r.commit)
	}
	info, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\tbuild\tCGO_ENABLED=0\n", "\tbuild\t-trimpath=true\n", "\tbuild\tvcs.revision=" + r.commit + "\n"} {
		if !bytes.Contains(info, []byte(want)) {
			t.Errorf("go version -m lacks %q:\n%s", want, info)
		}
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("the linux binary is dynamically linked: it has a %v program header", p.Type)
		}
	}
}

// Two builds of the same commit, in two clones at different paths, the
// second with an empty Go build cache, give the same bytes: every archive,
// SBOM and the checksums file. (The second clone checks out the first's
// commit: HEAD may have moved while the first built.)
func TestReleaseReproducible(t *testing.T) {
	testenv.NeedsLong(t) // a second release build from an empty build cache takes minutes
	if d, ok := t.Deadline(); ok && time.Until(d) < 25*time.Minute {
		testenv.Missing(t, "less than 25 minutes to the -timeout: a second release build from an empty build cache can take that long on a busy machine; run with -timeout 60m, as .ci/run does")
	}
	a := snapshot(t)
	b, err := buildRelease(filepath.Join(tmpRoot, "b", "elsewhere", "discgen"), a.commit, "GOCACHE="+filepath.Join(tmpRoot, "gocache-b"))
	if err != nil {
		t.Fatal(err)
	}
	if b.commit != a.commit {
		t.Fatalf("the second clone is at %s, not %s", b.commit, a.commit)
	}
	sa, _ := os.ReadFile(filepath.Join(a.dist, "checksums.txt"))
	sb, _ := os.ReadFile(filepath.Join(b.dist, "checksums.txt"))
	t.Logf("checksums.txt of %s: sha256 %s\nchecksums.txt of %s: sha256 %s", a.dir, sha256Hex(sa), b.dir, sha256Hex(sb))
	if len(sa) == 0 || !bytes.Equal(sa, sb) {
		t.Fatalf("the two releases differ:\n%s\n%s", sa, sb)
	}
}
