package serverconf

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/tree"
)

// liveUANames are the names the live differential test configures: the
// crawlers with documented user agents and the catalogue's left-out
// generic words (Spider, LCC, Code, ...), so that most requests claim
// nothing and some claim one.
func liveUANames() []string {
	var out []string
	for n := range realUAs {
		out = append(out, n)
	}
	for n := range crawlers.Default().LeftOut {
		out = append(out, n)
	}
	return sortedUnique(out)
}

func sortedUnique(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if k := strings.ToLower(x); !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return out
}

// longUAs are user agents of about 7,000 bytes that make a backtracking
// engine try many ways (open comments, quoted pairs, items), each ending
// with a claim of name or with nothing; the servers must answer them as
// readUA reads them, in time.
func longUAs(name string) []string {
	return []string{
		"Foo " + strings.Repeat("(a;", 2000) + name + "/1.0",
		"Foo " + strings.Repeat("(a ", 2000) + name + "/1.0",
		"Foo " + strings.Repeat("\\(", 3000) + " " + name,
		"Foo " + strings.Repeat("a (b) ", 1000) + "x" + name,
		strings.Repeat("(a (b (c (d (e) d) c) b) a) ", 200) + name + "/1.0",
		strings.Repeat("x;", 3000) + "(" + name + "/1.0",
	}
}

// rawStatus sends GET path with the User-Agent fields given, each as its
// own field line (net/http sends one), and returns the status.
func rawStatus(t *testing.T, port int, path string, fields []string) (int, time.Duration) {
	t.Helper()
	start := time.Now()
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n", path, port)
	for _, f := range fields {
		fmt.Fprintf(&b, "User-Agent: %s\r\n", f)
	}
	b.WriteString("Connection: close\r\n\r\n")
	if _, err := c.Write([]byte(b.String())); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%q: %v", fields, err)
	}
	resp.Body.Close()
	return resp.StatusCode, time.Since(start)
}

// nginxJoins reports whether the installed nginx joins several
// User-Agent fields (1.23 and later); before, it reads the first.
func nginxJoins(t *testing.T) bool {
	out, err := exec.Command("nginx", "-v").CombinedOutput()
	if err != nil {
		t.Fatalf("nginx -v: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`nginx/(\d+)\.(\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("nginx -v: %s", out)
	}
	major, _ := strconv.Atoi(string(m[1]))
	minor, _ := strconv.Atoi(string(m[2]))
	return major > 1 || major == 1 && minor >= 23
}

// liveUserAgents is TestUserAgentProducts on a real server: with
// Disallow: / enforced, and then verified from a range no loopback address
// is in, for liveUANames, every catalogued user agent, the hostile
// variants of every name, two-field requests of the names, and the long
// user agents are sent; the answer is 403 exactly when readUA reads a claim of
// one of the names in the fields joined with ", " (for firstOnly, in the
// first field), else 200.
func liveUserAgents(t *testing.T, serve func(*testing.T, tree.Tree, Access, ...tree.Tree) int, firstOnly bool) {
	names := liveUANames()
	catalogued, hostile := uaCorpus(tokenNames(t))
	var reqs [][]string
	for _, ua := range append(catalogued, hostile...) {
		reqs = append(reqs, []string{ua})
	}
	for _, n := range names {
		reqs = append(reqs, multiFields(n)...)
	}
	long := 0
	for _, n := range names[:3] {
		for _, ua := range longUAs(n) {
			reqs = append(reqs, []string{ua})
			long++
		}
	}
	claim := func(fields []string) bool {
		if firstOnly {
			fields = fields[:1]
		}
		ua := strings.Join(fields, ", ")
		for _, n := range names {
			if productClaims(ua, n) {
				return true
			}
		}
		return false
	}
	rendered, content := accessTree()
	all := tokenAccess(names)
	for _, use := range []struct {
		name string
		a    Access
	}{{"enforce", Access{Enforce: all.Enforce}}, {"verified", Access{Verified: all.Verified}}} {
		t.Run(use.name, func(t *testing.T) {
			port := serve(t, rendered, use.a, content)
			refused, wrong := 0, 0
			var slowest, slowestLong time.Duration
			for i, fields := range reqs {
				want := 200
				if claim(fields) {
					want = 403
				}
				got, took := rawStatus(t, port, "/open.txt", fields)
				if i >= len(reqs)-long {
					slowestLong = max(slowestLong, took)
				} else {
					slowest = max(slowest, took)
				}
				if got != want {
					if wrong++; wrong <= 30 {
						t.Errorf("%q: status %d, want %d", fields, got, want)
					}
				}
				if want == 403 {
					refused++
				}
			}
			if refused == 0 || refused == len(reqs) {
				t.Fatalf("%d of %d refused: the test tells nothing apart", refused, len(reqs))
			}
			t.Logf("%d names, %d requests (%d catalogued, %d hostile, %d with two fields, %d of 7 kB), %d refused, %d answered otherwise; slowest %v, of 7 kB %v",
				len(names), len(reqs), len(catalogued), len(hostile), len(names)*len(multiFields("x")), long, refused, wrong, slowest.Round(time.Millisecond), slowestLong.Round(time.Millisecond))
		})
	}
}

func TestLiveUserAgentsNginx(t *testing.T) {
	livetest.NeedsNginx(t)
	liveUserAgents(t, serveNginxVerified, !nginxJoins(t))
}
func TestLiveUserAgentsApache(t *testing.T) { liveUserAgents(t, serveApacheVerified, false) }
func TestLiveUserAgentsCaddy(t *testing.T)  { liveUserAgents(t, serveCaddy, false) }
