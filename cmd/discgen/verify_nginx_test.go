package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestVerifyNginx builds the example with its nginx snippet, serves the
// build with a real nginx and verifies it (exit 0), then changes one file
// on disk and verifies again (exit 1, the file named).
func TestVerifyNginx(t *testing.T) {
	bin, err := exec.LookPath("nginx")
	if err != nil {
		t.Skip("nginx not installed")
	}
	dir := t.TempDir()
	for d := dir; strings.HasPrefix(d, os.TempDir()) && d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o755) // nginx workers may run as another user
	}
	public, conf := filepath.Join(dir, "public"), filepath.Join(dir, "server")
	var out, errb bytes.Buffer
	err = run([]string{"build", "-f", "../../examples/site.yaml", "-o", public, "--state", filepath.Join(dir, "state"),
		"--now", "2026-11-01", "--server", "nginx", "--server-dir", conf}, &out, &errb)
	if err != nil {
		t.Fatalf("build: %v\n%s", err, errb.String())
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	tmp := filepath.Join(dir, "tmp")
	config := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events {}
http {
	access_log off;
	default_type application/octet-stream;
	types { text/plain txt; }
	client_body_temp_path %[2]s; proxy_temp_path %[2]s; fastcgi_temp_path %[2]s;
	uwsgi_temp_path %[2]s; scgi_temp_path %[2]s;
	server {
		listen 127.0.0.1:%[3]d;
		root %[4]s;
		include %[5]s;
	}
}
`, dir, tmp, port, public, filepath.Join(conf, "nginx", "discgen.conf"))
	main := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(main, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", main)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(10 * time.Second); ; {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			el, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("nginx did not start on %s:\n%s\n%s", addr, logs.String(), el)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// Every file the build wrote is fetched: count them on disk.
	files := 0
	filepath.WalkDir(public, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files++
		}
		return err
	})
	checked := func(failed int) string { return fmt.Sprintf("%d files checked, %d failed", files, failed) }

	origin := "http://" + addr + "/"
	verify := func() (string, string, error) {
		var o, e bytes.Buffer
		err := run([]string{"verify", "-f", "../../examples/site.yaml", "--now", "2026-11-01", origin}, &o, &e)
		return o.String(), e.String(), err
	}
	o, e, err := verify()
	if err != nil {
		t.Fatalf("verify of the fresh build: %v\n%s\n%s", err, o, e)
	}
	if !strings.Contains(o, checked(0)) {
		t.Errorf("verify output:\n%s", o)
	}
	t.Logf("verify of the fresh build:\n%s", o)

	if err := os.WriteFile(filepath.Join(public, "autodisc", "description.txt"), []byte("Changed by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o, e, err = verify()
	if exitCode(err) != 1 {
		t.Fatalf("verify after a change: exit %d, want 1\n%s\n%s", exitCode(err), o, e)
	}
	if !strings.Contains(o, "/autodisc/description.txt: differs from the build") || !strings.Contains(o, checked(1)) {
		t.Errorf("verify does not name the changed file:\n%s", o)
	}
	if !strings.Contains(e, "discgen: error: "+origin+"autodisc/description.txt: differs from the build") || !strings.Contains(e, fmt.Sprintf("discgen: error: 1 of %d files", files)) {
		t.Errorf("stderr:\n%s", e)
	}
}
