package verify

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/aipref"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/tree"
)

// builtRobots is a robots.txt as discgen writes one: GPTBot and
// ClaudeBot allowed everywhere, everyone else kept out of /private/.
const builtRobots = "User-agent: GPTBot\nAllow: /\n\nUser-agent: ClaudeBot\nAllow: /\n\nUser-agent: *\nDisallow: /private/\n"

// prepend serves /robots.txt as a CDN that puts block before the site's
// own file does.
func prepend(block []byte) func(http.ResponseWriter, *http.Request) bool {
	return func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path != "/robots.txt" {
			return false
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write(append(append([]byte{}, block...), builtRobots...))
		return true
	}
}

func robotsResult(t *testing.T, rs []Result) Result {
	t.Helper()
	for _, r := range rs {
		if r.Path == "/robots.txt" {
			return r
		}
	}
	t.Fatal("no /robots.txt result")
	return Result{}
}

// TestVerifyCloudflareManaged serves the build's robots.txt with
// Cloudflare's managed block prepended (testdata/cloudflare-managed.txt,
// its source in testdata/README.md). verify names the block and reports
// what it changes, per agent and path: crawlers the build let read the *
// group (CCBot, Amazonbot, ...) may no longer fetch anything; GPTBot and
// ClaudeBot, which the build names with Allow: /, still may (Allow wins
// the tie with the block's Disallow: /); any other crawler now reads
// Content-Signal search=yes, ai-train=no.
func TestVerifyCloudflareManaged(t *testing.T) {
	block, err := os.ReadFile(filepath.Join("testdata", "cloudflare-managed.txt"))
	if err != nil {
		t.Fatal(err)
	}
	tr := sampleTree()
	tr["robots.txt"] = tree.Entry{Data: []byte(builtRobots)}
	r := robotsResult(t, run(t, true, tr, prepend(block), Options{}))
	problems := strings.Join(r.Problems, "\n")
	for _, want := range []string{
		"differs from the build in meaning for CCBot at /: fetch allowed (no rule matches) in the build, disallowed (line 42: Disallow: /) as served",
		"differs from the build in meaning for Amazonbot at /: fetch allowed (no rule matches) in the build, disallowed (line 33: Disallow: /) as served",
		"differs from the build in meaning for any crawler no group names (*) at /, /private/: usage Content-Usage none; Content-Signal none in the build, Content-Usage none; Content-Signal train_ai=no, search=yes as served",
	} {
		if !strings.Contains(problems, want) {
			t.Errorf("problems lack %q:\n%s", want, problems)
		}
	}
	for _, not := range []string{"for GPTBot at /: fetch", "for ClaudeBot at /: fetch", "for * at /private/: fetch"} {
		if strings.Contains(problems, not) {
			t.Errorf("problems hold %q:\n%s", not, problems)
		}
	}
	notes := strings.Join(r.Notes, "\n")
	if want := "the server added Cloudflare's managed robots.txt (https://developers.cloudflare.com/bots/additional-configurations/managed-robots-txt/); Cloudflare's content signals policy (https://developers.cloudflare.com/bots/additional-configurations/managed-robots-txt/), lines 1-56, which the build does not hold"; !strings.Contains(notes, want) {
		t.Errorf("notes lack %q:\n%s", want, notes)
	}
	if strings.Contains(notes, "dropped") {
		t.Errorf("notes: %s", notes)
	}
}

// TestVerifyBytesOnly: a server that changes robots.txt's bytes and not
// its meaning (CRLF line ends, a comment, a blank line) draws notes, not a
// failure.
func TestVerifyBytesOnly(t *testing.T) {
	tr := sampleTree()
	tr["robots.txt"] = tree.Entry{Data: []byte(builtRobots)}
	served := "# served by a platform that adds this comment\r\n" + strings.ReplaceAll(builtRobots, "\n", "\r\n")
	r := robotsResult(t, run(t, true, tr, func(w http.ResponseWriter, req *http.Request) bool {
		if req.URL.Path != "/robots.txt" {
			return false
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte(served))
		return true
	}, Options{}))
	if !r.OK() {
		t.Errorf("problems %q", r.Problems)
	}
	notes := strings.Join(r.Notes, "\n")
	for _, want := range []string{"the server added lines 1-1, which the build does not hold", "not in meaning"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

// TestCompareRobotsDropped names lines the server left out, and bounds
// the probes of a hostile file.
func TestCompareRobotsDropped(t *testing.T) {
	m := CompareRobots([]byte(builtRobots), []byte("User-agent: GPTBot\nAllow: /\n"))
	if len(m.Dropped) != 1 || m.Dropped[0].From != 3 || m.Dropped[0].To != 8 {
		t.Errorf("dropped %+v", m.Dropped)
	}
	var b strings.Builder
	for i := range 2000 {
		b.WriteString("User-agent: Bot" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + "\nDisallow: /p" + strings.Repeat("q", i) + "\n")
	}
	if m := CompareRobots([]byte(builtRobots), []byte(b.String())); !m.Truncated {
		t.Error("not truncated")
	}
}

// TestVerifyTooLargeToCompare: a served file too large to compare in full,
// where the questions asked find no difference, is still a failure: its
// meaning is not shown to be the build's.
func TestVerifyTooLargeToCompare(t *testing.T) {
	var b strings.Builder
	b.WriteString(builtRobots)
	for i := 0; b.Len() < 400<<10; i++ {
		b.WriteString("Disallow: /a" + strings.Repeat("b", i%50) + "\n")
	}
	var r Result
	CompareRobots([]byte(builtRobots), []byte(b.String())).Report(&r, b.Len(), len(builtRobots))
	if r.OK() || !strings.Contains(strings.Join(r.Problems, "\n"), "differs from the build") {
		t.Errorf("problems %q, notes %q", r.Problems, r.Notes)
	}
}

// TestVerifyUsageHeaderMeaning: a Content-Usage header that says the
// build's preferences in other words (members reordered, spaces, two
// header lines) is a note; one that says other preferences stays a
// problem.
func TestVerifyUsageHeaderMeaning(t *testing.T) {
	u := &robots.Usage{Prefs: aipref.Prefs{TrainAI: aipref.PrefNo, Search: aipref.PrefYes}, ContentUsage: true}
	for _, c := range []struct {
		values  []string
		problem bool
	}{
		{[]string{"search=y, train-ai=n"}, false},
		{[]string{"train-ai=n,search=y"}, false},
		{[]string{"train-ai=n", "search=y"}, false},
		{[]string{"search=y, train-ai=y"}, true},
		{[]string{"search=y"}, true},
		{[]string{"search=y, train-ai=n, bogus"}, true},
	} {
		var r Result
		h := http.Header{"Content-Usage": c.values}
		checkUsageHeader(&r, u, "/robots.txt", h)
		if got := !r.OK(); got != c.problem {
			t.Errorf("%q: problems %q, notes %q", c.values, r.Problems, r.Notes)
		}
		if !c.problem && !strings.Contains(strings.Join(r.Notes, "\n"), "the same preferences") {
			t.Errorf("%q: notes %q", c.values, r.Notes)
		}
	}
}

// A served file past the lines a parse reads is compared in part, and
// said to be: the lines after the bound are not read.
func TestCompareRobotsPastParseBound(t *testing.T) {
	served := builtRobots + strings.Repeat("a:\n", robots.MaxLines) + "User-agent: Late\nDisallow: /\n"
	if m := CompareRobots([]byte(builtRobots), []byte(served)); !m.Truncated {
		t.Error("not truncated")
	}
}
