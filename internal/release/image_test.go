package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// podman runs podman with its storage in dir: the vfs driver and cgroupfs,
// which need neither fuse-overlayfs nor systemd, and runc when crun cannot
// run here (a host with both cgroup versions mounted).
type podman struct {
	base []string
}

func (p podman) cmd(args ...string) *exec.Cmd {
	return exec.Command("podman", append(append([]string(nil), p.base...), args...)...)
}

// runArgs are podman run's arguments for a container of the tests: no
// network, the open-files limit this process has, and at most 4096
// processes, since podman's defaults may exceed what a sandboxed host lets
// a container set (some refuse even this process's own process limit).
func runArgs() []string {
	args := []string{"run", "--rm", "--network", "none", "--ulimit", "nproc=4096:4096"}
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err == nil && lim.Cur != unix.RLIM_INFINITY {
		n := strconv.FormatUint(lim.Cur, 10)
		args = append(args, "--ulimit", "nofile="+n+":"+n)
	}
	return args
}

// newPodman loads the oci-archive image into a private podman store and
// returns the image's name; it skips the test, saying why, when podman is
// absent or cannot run a container here.
func newPodman(t *testing.T, dir, image string) (podman, string) {
	t.Helper()
	testenv.NeedsTool(t, "podman", "apt-get install podman runc; .ci/run installs it")
	p := podman{base: []string{"--root", filepath.Join(dir, "root"), "--runroot", filepath.Join(dir, "run"),
		"--storage-driver", "vfs", "--cgroup-manager", "cgroupfs"}}
	out, err := p.cmd("load", "-q", "-i", image).CombinedOutput()
	if err != nil {
		t.Fatalf("podman load: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`Loaded image(?:\(s\))?: (\S+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("podman load named no image:\n%s", out)
	}
	name := string(m[1])
	probe, err := p.cmd(append(runArgs(), name, "version")...).CombinedOutput()
	if err != nil {
		if _, lerr := exec.LookPath("runc"); lerr == nil {
			p.base = append(p.base, "--runtime", "runc")
			probe, err = p.cmd(append(runArgs(), name, "version")...).CombinedOutput()
		}
	}
	if err != nil {
		testenv.Missing(t, "podman cannot run a container here: %v\n%s", err, probe)
	}
	return p, name
}

const (
	imageSite = `version: 1
site: {url: "https://isp.example/", description: "An ISP"}
agents: [{names: ["*"], disallow: [/cgi-bin/]}]
delegations:
  - path: "~*"
    only: [description.txt, feeds.txt]
    tenants: "/home/*/public_html/autodisc.yaml"
`
	imageTenant = `version: 1
path: /~alice/
description: Alice's notes
feeds: [{url: /~alice/feed.atom}]
`
)

// The image written from a snapshot release by ./image runs under podman:
// discgen version names the release, and the README's Indexed Job, each of
// its pods' args run in the image with the Job's volumes as directories,
// builds the site and its tenant.
func TestImage(t *testing.T) {
	testenv.NeedsLong(t)
	testenv.NeedsLinux(t) // podman runs Linux images on Linux
	r := snapshot(t)
	work := t.TempDir()
	image := filepath.Join(work, "discgen_oci.tar")
	epoch, err := exec.Command("git", "-C", r.dir, "log", "-1", "--format=%ct").Output()
	if err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "run", "./image", "-dist", r.dist, "-o", image)
	build.Env = append(os.Environ(), "SOURCE_DATE_EPOCH="+strings.TrimSpace(string(epoch)))
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("image: %v\n%s", err, out)
	}
	first, _ := os.ReadFile(image)
	again := filepath.Join(work, "again.tar")
	build = exec.Command("go", "run", "./image", "-dist", r.dist, "-o", again)
	build.Env = append(os.Environ(), "SOURCE_DATE_EPOCH="+strings.TrimSpace(string(epoch)))
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("image: %v\n%s", err, out)
	}
	if second, _ := os.ReadFile(again); len(first) == 0 || sha256Hex(first) != sha256Hex(second) {
		t.Errorf("two images of one release differ")
	}
	t.Logf("image %s: %d bytes, sha256 %s", filepath.Base(image), len(first), sha256Hex(first))

	p, name := newPodman(t, filepath.Join(work, "podman"), image)
	out, err := p.cmd(append(runArgs(), name, "version")...).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "discgen "+r.version+" commit "+r.commit+" go1.") || !strings.HasSuffix(string(out), " linux/"+runtime.GOARCH+"\n") {
		t.Fatalf("discgen version in the image: %v\n%s", err, out)
	}
	t.Logf("podman %v: %s", p.base, out)

	// The README's Job, its volumes as directories.
	_, inst := readmeJob(t)
	jb := decodeJob(t, inst)
	vols := map[string]string{}
	for _, v := range jb.Spec.Template.Spec.Volumes {
		vols[v.Name] = filepath.Join(work, "volumes", v.Name)
		if err := os.MkdirAll(vols[v.Name], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c := jb.Spec.Template.Spec.Containers[0]
	hostPath := func(containerPath string) string {
		for _, m := range c.VolumeMounts {
			if rel, ok := strings.CutPrefix(containerPath, m.MountPath+"/"); ok {
				return filepath.Join(vols[m.Name], rel)
			}
		}
		t.Fatalf("%s is on no volume of the Job", containerPath)
		return ""
	}
	writeFile := func(name, data string) {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(hostPath("/etc/discgen/site.yaml"), imageSite)
	writeFile(hostPath("/home/alice/public_html/autodisc.yaml"), imageTenant)

	for i := 0; i < jb.Spec.Completions; i++ {
		args := runArgs()
		for _, m := range c.VolumeMounts {
			args = append(args, "-v", vols[m.Name]+":"+m.MountPath)
		}
		args = append(args, "-e", "JOB_COMPLETION_INDEX="+strconv.Itoa(i), name)
		for _, a := range c.Args {
			// What Kubernetes does with $(VAR) in args.
			args = append(args, strings.ReplaceAll(a, "$(JOB_COMPLETION_INDEX)", strconv.Itoa(i)))
		}
		if out, err := p.cmd(args...).CombinedOutput(); err != nil {
			t.Fatalf("pod %d: %v\n%s", i, err, out)
		}
	}
	for _, f := range []string{"/srv/www/public/robots.txt", "/srv/www/public/autodisc/index.txt", "/home/alice/public_html/autodisc/description.txt", "/home/alice/public_html/autodisc/feeds.txt"} {
		if _, err := os.Stat(hostPath(f)); err != nil {
			t.Errorf("after the Job: %v", err)
		}
	}
	if data, err := os.ReadFile(hostPath("/home/alice/public_html/autodisc/description.txt")); err != nil || !strings.Contains(string(data), "Alice's notes") {
		t.Errorf("alice's description.txt: %q, %v", data, err)
	}
}
