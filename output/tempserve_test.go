//go:build linux

package output

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/output/internal/record"
)

// leftTemp applies a new a.txt to root and calls seen with the temporary
// file's name as it stands right before its rename: what a build killed
// at that moment leaves in the published directory.
func leftTemp(t *testing.T, root, state string, seen func(name string, fi os.FileInfo)) {
	t.Helper()
	opt := Options{StateDir: state, NoSync: true}
	if _, _, err := Write(root, files("a.txt", "1\n"), opt); err != nil {
		t.Fatal(err)
	}
	called := false
	opt.hooks = &hooks{step: func(step, p string) error {
		if step != "rename" || p != "a.txt" {
			return nil
		}
		ents, err := os.ReadDir(root)
		if err != nil {
			return err
		}
		for _, d := range ents {
			if record.IsTempName(d.Name()) {
				fi, err := os.Lstat(filepath.Join(root, d.Name()))
				if err != nil {
					return err
				}
				called = true
				seen(d.Name(), fi)
			}
		}
		return nil
	}}
	if _, _, err := Write(root, files("a.txt", "2\n"), opt); err != nil {
		t.Fatal(err)
	}
	if !called {
		t.Fatal("no temporary file seen before the rename")
	}
}

// A temporary file a killed build leaves is refused by web servers: it
// has no permission bits until its rename, and a name Apache's stock
// configuration refuses. Published, the file has its mode.
func TestLeftTempFileHidden(t *testing.T) {
	e := newEnv(t)
	leftTemp(t, e.root, e.state, func(name string, fi os.FileInfo) {
		if !strings.HasPrefix(name, ".ht") {
			t.Errorf("temporary file %s: Apache's stock configuration serves it", name)
		}
		if fi.Mode().Perm() != 0 {
			t.Errorf("temporary file %s has mode %v before its rename, want none", name, fi.Mode().Perm())
		}
	})
	if fi, err := os.Stat(e.path("a.txt")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("published a.txt: %v %v", fi.Mode(), err)
	}
}

// The same, served by a real nginx whose worker is not root (as nginx
// always runs its workers): the leftover file is refused, the published
// one served.
func TestLeftTempFileNotServedByNginx(t *testing.T) {
	bin := livetest.NeedsNginx(t)
	base := livetest.Dir(t)
	root, state := filepath.Join(base, "public"), filepath.Join(base, "state")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(base, "nginx")
	if err := os.Mkdir(run, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(run, 0o777) // past the umask: the worker writes its log here
	port := livetest.FreePort(t)
	main := filepath.Join(run, "nginx.conf")
	config := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events {}
http {
	access_log off;
	client_body_temp_path %[1]s; proxy_temp_path %[1]s; fastcgi_temp_path %[1]s;
	uwsgi_temp_path %[1]s; scgi_temp_path %[1]s;
	server {
		listen 127.0.0.1:%[2]d;
		root %[3]s;
	}
}
`, run, port, root)
	if err := os.WriteFile(main, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", run, "-e", filepath.Join(run, "error.log"), "-c", main)
	if os.Getuid() == 0 {
		// One process, as the unprivileged user nginx gives its
		// workers.
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	livetest.Start(t, cmd, port, filepath.Join(run, "error.log"))
	get := func(name string) (int, string) {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/%s", port, name))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	leftTemp(t, root, state, func(name string, _ os.FileInfo) {
		if code, body := get(name); code == http.StatusOK {
			t.Errorf("nginx serves the temporary file %s: %d %q", name, code, body)
		}
		if code, body := get("a.txt"); code != http.StatusOK || body != "1\n" {
			t.Errorf("nginx serves a.txt before its rename: %d %q", code, body)
		}
	})
	if code, body := get("a.txt"); code != http.StatusOK || body != "2\n" {
		t.Errorf("nginx serves the published a.txt: %d %q", code, body)
	}
}
