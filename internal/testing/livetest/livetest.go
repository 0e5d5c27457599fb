// Package livetest runs real web servers (nginx, Apache, Caddy) on the
// loopback interface for tests: a directory they may read, a free port,
// and a process that lives until the test ends. The tests that use them
// are of the long tier (DISCGEN_LONG=1): without it they skip, and a
// server missing under CI fails them (see internal/testing/testenv).
//
// Only _test.go files import it, as internal/layout checks.
package livetest

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// Dir returns a new temporary directory that a server's workers, which may
// run as another user, can read: it and its parents up to the system's
// temporary directory are made world-readable.
func Dir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for d := dir; d != os.TempDir() && d != filepath.Dir(d); d = filepath.Dir(d) {
		if !strings.HasPrefix(d, os.TempDir()) {
			break
		}
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// FreePort returns a TCP port on 127.0.0.1 that nothing listens on, for
// a server the test starts. It is taken below the kernel's ephemeral
// range (net.ipv4.ip_local_port_range), from which the tests' own
// outgoing connections take their local ports: a port the kernel hands
// out for listen(":0") may be a connection's local port by the time the
// server binds it ("bind: address already in use"). Ports are tried at
// random from firstPort up to that range, each checked by listening on
// it, as a server on the port would, on every address.
func FreePort(t testing.TB) int {
	t.Helper()
	low := ephemeralLow()
	for range 200 {
		port := firstPort + rand.IntN(low-firstPort)
		l, err := net.Listen("tcp", fmt.Sprintf(":%d", port))
		if err != nil {
			continue
		}
		l.Close()
		return port
	}
	t.Fatalf("no free TCP port between %d and %d after 200 tries", firstPort, low)
	return 0
}

// firstPort is the lowest port FreePort hands out: above the ports
// services on the machine are configured with.
const firstPort = 20000

// ephemeralLow returns the first port of the kernel's ephemeral range,
// 32768 (Linux's default) where it cannot be read or leaves no room.
func ephemeralLow() int {
	data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err == nil {
		if f := strings.Fields(string(data)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > firstPort+1000 {
				return n
			}
		}
	}
	return 32768
}

// Start runs cmd until the test ends and waits until the port answers.
func Start(t testing.TB, cmd *exec.Cmd, port int, logFile string) {
	t.Helper()
	out, err := os.Create(filepath.Join(t.TempDir(), "out.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
		out.Close()
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.After(10 * time.Second)
wait:
	for {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
		select {
		case err := <-done:
			done <- err // for the cleanup
			break wait
		case <-deadline:
			break wait
		case <-time.After(50 * time.Millisecond):
		}
	}
	logs, _ := os.ReadFile(out.Name())
	more, _ := os.ReadFile(logFile)
	t.Fatalf("%s did not start listening on %s:\n%s\n%s", cmd.Path, addr, logs, more)
}

// NeedsNginx returns the path of nginx, for a test of the long tier: it
// skips the test without DISCGEN_LONG, and when nginx is not installed
// skips it, or under CI fails it.
func NeedsNginx(t testing.TB) string {
	t.Helper()
	testenv.NeedsLong(t)
	return testenv.NeedsTool(t, "nginx", "apt-get install nginx-light; .ci/run installs it")
}

// NeedsCaddy is NeedsNginx for Caddy.
func NeedsCaddy(t testing.TB) string {
	t.Helper()
	testenv.NeedsLong(t)
	return testenv.NeedsTool(t, "caddy", "apt-get install caddy; .ci/run installs it")
}

// Nginx serves root with nginx on a free port of 127.0.0.1, with the
// snippet include in its server block, until the test ends, and returns
// the port. dir (from Dir) holds nginx's own files. The configuration is
// checked with nginx -t first. httpIncludes go into its http block (a
// geo or map block cannot stand in a server block). It skips the test as
// NeedsNginx does.
func Nginx(t testing.TB, dir, root, include string, httpIncludes ...string) int {
	t.Helper()
	bin := NeedsNginx(t)
	port := FreePort(t)
	main := filepath.Join(dir, "nginx.conf")
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
%[6]s	server {
		listen 127.0.0.1:%[3]d;
		root %[4]s;
		include %[5]s;
	}
}
`, dir, tmp, port, root, include, httpLines(httpIncludes))
	if err := os.WriteFile(main, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-t", "-p", dir, "-c", main).CombinedOutput(); err != nil {
		t.Fatalf("nginx -t: %v\n%s", err, out)
	}
	Start(t, exec.Command(bin, "-p", dir, "-c", main), port, filepath.Join(dir, "error.log"))
	return port
}

// Apache serves root with Apache httpd on a free port of 127.0.0.1 until
// the test ends, and returns the port. The configuration loads the
// modules every test needs (event MPM, authz_core, mime, headers,
// expires, rewrite) and those named in modules, runs as nobody when
// started as root, lets .htaccess files in root set FileInfo and Indexes,
// and ends with extra. dir (from Dir) holds httpd's own files. It skips
// the test, as NeedsNginx does, when httpd or one of the modules is not
// installed.
func Apache(t testing.TB, dir, root string, modules []string, extra string) int {
	t.Helper()
	testenv.NeedsLong(t)
	bin, err := exec.LookPath("apache2")
	if err != nil {
		bin = testenv.NeedsTool(t, "httpd", "apt-get install apache2; .ci/run installs it")
	}
	mods := ""
	for _, d := range []string{"/usr/lib/apache2/modules", "/usr/lib64/httpd/modules", "/usr/lib/httpd/modules"} {
		if _, err := os.Stat(filepath.Join(d, "mod_headers.so")); err == nil {
			mods = d
			break
		}
	}
	if mods == "" {
		testenv.Missing(t, "Apache module directory with mod_headers.so not found")
	}
	var load strings.Builder
	for _, m := range append([]string{"mpm_event", "authz_core", "mime", "headers", "expires", "rewrite"}, modules...) {
		so := filepath.Join(mods, "mod_"+m+".so")
		if _, err := os.Stat(so); err != nil {
			testenv.Missing(t, "Apache's mod_%s.so not found in %s", m, mods)
		}
		fmt.Fprintf(&load, "LoadModule %s_module %s\n", m, so)
	}
	user := ""
	if os.Getuid() == 0 {
		user = "User nobody\nGroup nogroup\n"
	}
	port := FreePort(t)
	main := filepath.Join(dir, "httpd.conf")
	config := fmt.Sprintf(`ServerRoot %[1]s
DefaultRuntimeDir %[1]s
PidFile %[1]s/httpd.pid
TypesConfig /dev/null
ErrorLog %[1]s/error.log
%[2]s%[3]sListen 127.0.0.1:%[4]d
ServerName localhost
AddType text/plain .txt
DocumentRoot %[5]s
<Directory %[5]s>
	AllowOverride FileInfo Indexes
	Options FollowSymLinks
	Require all granted
</Directory>
%[6]s`, dir, load.String(), user, port, root, extra)
	if err := os.WriteFile(main, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	Start(t, exec.Command(bin, "-X", "-f", main), port, filepath.Join(dir, "error.log"))
	return port
}

// Caddy serves site, the body of a Caddyfile site block, with Caddy on a
// free port of 127.0.0.1 until the test ends, and returns the port. The
// global options turn the admin API and automatic HTTPS off and keep
// Caddy's storage in dir (from Dir), which also holds the Caddyfile;
// "caddy validate" checks it first. It skips the test as NeedsCaddy does.
func Caddy(t testing.TB, dir, site string) int {
	t.Helper()
	bin := NeedsCaddy(t)
	port := FreePort(t)
	main := filepath.Join(dir, "Caddyfile")
	config := fmt.Sprintf(`{
	admin off
	auto_https off
	storage file_system %[1]s/data
}
http://127.0.0.1:%[2]d {
%[3]s
}
`, dir, port, site)
	if err := os.WriteFile(main, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	validate := exec.Command(bin, "validate", "--config", main, "--adapter", "caddyfile")
	validate.Env = env
	if out, err := validate.CombinedOutput(); err != nil {
		t.Fatalf("caddy validate: %v\n%s", err, out)
	}
	run := exec.Command(bin, "run", "--config", main, "--adapter", "caddyfile")
	run.Env = env
	Start(t, run, port, filepath.Join(dir, "caddy.log"))
	return port
}

// httpLines writes the include lines of an nginx http block.
func httpLines(includes []string) string {
	var b strings.Builder
	for _, f := range includes {
		fmt.Fprintf(&b, "\tinclude %s;\n", f)
	}
	return b.String()
}
