package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/internal/testing/testfs"
)

// renewSite has a security.txt whose Expires is 180 days from the
// build's month: each build renews it.
const renewSite = `version: 1
site: {url: "https://example.org/"}
agents: [{names: ["*"], disallow: [/private/]}]
well_known:
  security_txt:
    contact: ["mailto:security@example.org"]
    expires: EXPIRES
`

// renewRepo makes a repository with the site built at built, on branch
// main, pushed to a bare origin; it returns the work tree and the origin.
func renewRepo(t *testing.T, discgen, expires string, built time.Time) (string, string) {
	t.Helper()
	git := testenv.NeedsTool(t, "git", "apt-get install git")
	dir, origin := t.TempDir(), filepath.Join(t.TempDir(), "origin.git")
	gitIn := func(d string, args ...string) {
		t.Helper()
		cmd := exec.Command(git, append([]string{"-c", "user.name=Site Owner", "-c", "user.email=owner@example.org", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = d
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	gitIn(dir, "init", "--quiet", "--bare", origin)
	gitIn(dir, "init", "--quiet", "-b", "main")
	testfs.Write(t, filepath.Join(dir, "site.yaml"), strings.Replace(renewSite, "EXPIRES", expires, 1))
	if out, err := exec.Command(discgen, "build", "-f", filepath.Join(dir, "site.yaml"), "-o", filepath.Join(dir, "public"), "--now", built.Format(time.RFC3339)).CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	gitIn(dir, "add", "-A")
	gitIn(dir, "commit", "--quiet", "-m", "site")
	gitIn(dir, "remote", "add", "origin", origin)
	gitIn(dir, "push", "--quiet", "origin", "main")
	return dir, origin
}

// fakeGH puts a gh on PATH that logs its arguments and answers pr list
// with list (an open pull request's URL, or nothing) and pr create with a
// URL; it returns the PATH entry and the log.
func fakeGH(t *testing.T, list string) (string, string) {
	t.Helper()
	bin := t.TempDir()
	log := filepath.Join(bin, "gh.log")
	testfs.Write(t, filepath.Join(bin, "gh"), `#!/usr/bin/env bash
printf '%s\n' "$*" >>"`+log+`"
printf 'GH_TOKEN=%s\n' "$GH_TOKEN" >>"`+log+`"
case "$1 $2" in
  "pr list") printf '%s\n' "`+list+`" ;;
  "pr create") printf 'Creating pull request\nhttps://github.com/fict/site/pull/7\n' ;;
  *) exit 1 ;;
esac
`)
	if err := os.Chmod(filepath.Join(bin, "gh"), 0o755); err != nil {
		t.Fatal(err)
	}
	return "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), log
}

// epoch is the environment that makes t the current time of the
// Action's script and of the build it runs.
func epoch(t time.Time) string { return "SOURCE_DATE_EPOCH=" + strconv.FormatInt(t.Unix(), 10) }

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestActionRenew runs the Action's renew command on a schedule's days:
// far from Expires it does nothing; within renew-days it rebuilds,
// commits the output on its branch, pushes it and opens a pull request
// (gh, faked), and the checkout is back on main as it was.
func TestActionRenew(t *testing.T) {
	needBash(t)
	discgen := buildDiscgen(t)
	jan := time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC) // Expires 2026-06-30 (180d from January 1)
	dir, origin := renewRepo(t, discgen, "180d", jan)
	before, err := os.ReadFile(filepath.Join(dir, "public/.well-known/security.txt"))
	if err != nil || !strings.Contains(string(before), "Expires: 2026-06-30T00:00:00Z\n") {
		t.Fatalf("the committed security.txt: %v\n%s", err, before)
	}
	path, ghLog := fakeGH(t, "")
	env := []string{"DISCGEN_COMMAND=renew", "DISCGEN_RENEW_DAYS=30", "GH_TOKEN=t0ken", path}

	// March: 121 days left, nothing to do, nothing built or asked.
	r := runAction(t, dir, discgen, append(env, epoch(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)))...)
	if r.status != 0 || r.outputs != "renewed=false\nexpires=2026-06-30T00:00:00Z\npull-request=\n" ||
		!strings.Contains(r.log, "::notice title=discgen renew::security.txt expires on 2026-06-30T00:00:00Z, in 121 days: more than renew-days (30), nothing to renew") {
		t.Fatalf("March: status %d, outputs %q\n%s", r.status, r.outputs, r.log)
	}
	if _, err := os.Stat(ghLog); err == nil {
		t.Error("March: gh was run")
	}

	// June 15: 15 days left. The build of June gives 2026-11-28.
	r = runAction(t, dir, discgen, append(env, epoch(time.Date(2026, 6, 15, 0, 0, 0, 0, time.UTC)))...)
	const url = "https://github.com/fict/site/pull/7"
	if r.status != 0 || r.outputs != "renewed=true\nexpires=2026-11-28T00:00:00Z\npull-request="+url+"\n" {
		t.Fatalf("June: status %d, outputs %q\n%s", r.status, r.outputs, r.log)
	}
	if !strings.Contains(r.log, "::notice title=discgen renew::opened "+url+": Expires 2026-06-30T00:00:00Z -> 2026-11-28T00:00:00Z") ||
		!strings.Contains(r.summary, "rebuilt with Expires 2026-11-28T00:00:00Z: "+url) {
		t.Errorf("June: log\n%s\nsummary\n%s", r.log, r.summary)
	}
	calls, _ := os.ReadFile(ghLog)
	for _, want := range []string{"pr list --head discgen/renew-security-txt --base main --state open --json url --jq .[0].url",
		"pr create --head discgen/renew-security-txt --base main --title security.txt: renew Expires to 2026-11-28T00:00:00Z --body discgen renewed security.txt: Expires was 2026-06-30T00:00:00Z (15 days away; renew-days is 30), now 2026-11-28T00:00:00Z.",
		"GH_TOKEN=t0ken"} {
		if !strings.Contains(string(calls), want) {
			t.Errorf("gh was not run with %q:\n%s", want, calls)
		}
	}
	// The branch on the origin holds the renewed output, one commit on
	// main, and only the output changed.
	pushed := gitOut(t, origin, "show", "discgen/renew-security-txt:public/.well-known/security.txt")
	if !strings.Contains(pushed, "Expires: 2026-11-28T00:00:00Z\n") {
		t.Errorf("the pushed security.txt:\n%s", pushed)
	}
	if got := gitOut(t, origin, "log", "--format=%s", "main..discgen/renew-security-txt"); got != "security.txt: renew Expires to 2026-11-28T00:00:00Z\n" {
		t.Errorf("commits on the branch: %q", got)
	}
	// discgen's records go with it, or the next build would refuse the
	// file.
	changed := strings.Fields(gitOut(t, origin, "diff", "--name-only", "main", "discgen/renew-security-txt"))
	if len(changed) != 2 || !strings.HasPrefix(changed[0], ".discgen/records/") || changed[1] != "public/.well-known/security.txt" {
		t.Errorf("files changed on the branch: %q", changed)
	}
	// The checkout is back on main, clean, with the old file.
	if got := gitOut(t, dir, "rev-parse", "--abbrev-ref", "HEAD"); got != "main\n" {
		t.Errorf("checkout left on %q", got)
	}
	if got := gitOut(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("checkout not clean:\n%s", got)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "public/.well-known/security.txt")); string(now) != string(before) {
		t.Errorf("the checkout's security.txt changed:\n%s", now)
	}

	// A pull request already open is updated (the branch pushed again),
	// not opened twice.
	path2, ghLog2 := fakeGH(t, url)
	env2 := []string{"DISCGEN_COMMAND=renew", "DISCGEN_RENEW_DAYS=30", path2}
	r = runAction(t, dir, discgen, append(env2, epoch(time.Date(2026, 6, 20, 0, 0, 0, 0, time.UTC)))...)
	calls, _ = os.ReadFile(ghLog2)
	if r.status != 0 || !strings.Contains(r.log, "::notice title=discgen renew::updated "+url) || strings.Contains(string(calls), "pr create") {
		t.Errorf("an open pull request: status %d\n%s\n%s", r.status, r.log, calls)
	}
}

// TestActionRenewRefuses: a fixed expires date, which a build does not
// move, fails with the fix; so does a duration too short for renew-days,
// and a renew-days that is not a number of days. Nothing is pushed.
func TestActionRenewRefuses(t *testing.T) {
	needBash(t)
	discgen := buildDiscgen(t)
	path, ghLog := fakeGH(t, "")
	june := epoch(time.Date(2026, 6, 15, 0, 0, 0, 0, time.UTC))

	dir, origin := renewRepo(t, discgen, `"2026-07-01T00:00:00Z"`, time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC))
	r := runAction(t, dir, discgen, "DISCGEN_COMMAND=renew", "DISCGEN_RENEW_DAYS=30", path, june)
	if r.status != 1 || !strings.Contains(r.log, "::error title=discgen renew::the build gives the same Expires (2026-07-01T00:00:00Z): the manifest's expires is a fixed date, which a build does not move. Write a duration instead (expires: 1y counts from the build's month)") {
		t.Errorf("a fixed date: status %d\n%s", r.status, r.log)
	}

	dir2, _ := renewRepo(t, discgen, "61d", time.Date(2026, 4, 10, 0, 0, 0, 0, time.UTC))
	r = runAction(t, dir2, discgen, "DISCGEN_COMMAND=renew", "DISCGEN_RENEW_DAYS=60", path, june)
	if r.status != 1 || !strings.Contains(r.log, "the build gives Expires 2026-08-01T00:00:00Z, still within renew-days (60 days)") {
		t.Errorf("too short: status %d\n%s", r.status, r.log)
	}

	for _, days := range []string{"", "0", "x", "99999", "1 2"} {
		r = runAction(t, dir, discgen, "DISCGEN_COMMAND=renew", "DISCGEN_RENEW_DAYS="+days, path, june)
		if r.status != 2 || !strings.Contains(r.log, "renew-days must be a number of days from 1 to 3650") {
			t.Errorf("renew-days %q: status %d\n%s", days, r.status, r.log)
		}
	}
	if _, err := os.Stat(ghLog); err == nil {
		t.Error("gh was run")
	}
	if got := gitOut(t, origin, "branch", "--list"); strings.Contains(got, "renew") {
		t.Errorf("a branch was pushed: %s", got)
	}
}

// The renew command's inputs and outputs are in action.yml, reach the
// run step, and the token is given to that step only for renew.
func TestActionRenewMetadata(t *testing.T) {
	a := readAction(t)
	for in, def := range map[string]string{"renew-days": "30", "renew-branch": "discgen/renew-security-txt", "token": "${{ github.token }}"} {
		if got, ok := a.Inputs[in]; !ok || got.Default != def {
			t.Errorf("input %q: %v, default %q, want %q", in, ok, got.Default, def)
		}
	}
	for _, out := range []string{"renewed", "expires", "pull-request"} {
		if v := a.Outputs[out].Value; v != "${{ steps.run.outputs."+out+" }}" {
			t.Errorf("output %q has value %q, want the run step's", out, v)
		}
	}
	for _, s := range a.Runs.Steps {
		if s.ID != "run" {
			continue
		}
		for k, want := range map[string]string{
			"DISCGEN_RENEW_DAYS":   "${{ inputs.renew-days }}",
			"DISCGEN_RENEW_BRANCH": "${{ inputs.renew-branch }}",
			"GH_TOKEN":             "${{ inputs.command == 'renew' && inputs.token || '' }}",
		} {
			if s.Env[k] != want {
				t.Errorf("run step's %s = %q, want %q", k, s.Env[k], want)
			}
		}
		return
	}
	t.Error("no run step")
}

// The build renew.sh runs passes only flags discgen build defines.
func TestActionRenewUsesRealFlags(t *testing.T) {
	script, err := os.ReadFile("../../action/renew.sh")
	if err != nil {
		t.Fatal(err)
	}
	fs := commandFlagSet("build")
	n := 0
	for _, line := range strings.Split(string(script), "\n") {
		if !strings.Contains(line, `"$bin" build `) {
			continue
		}
		for _, fl := range regexp.MustCompile(`\s--[a-z][a-z-]*`).FindAllString(line, -1) {
			n++
			if name := strings.TrimLeft(fl, " \t-"); fs.Lookup(name) == nil {
				t.Errorf("action/renew.sh passes --%s, which discgen build does not define", name)
			}
		}
	}
	if n < 4 {
		t.Fatalf("found only %d flags in renew.sh's build", n)
	}
}

// TestActionRenewFixedDate: what docs/github-action.md says of a fixed
// expires date. While it is more than renew-days away, renew stops as it
// does for a duration; within renew-days, the rebuild gives the same date
// and renew fails, saying to write a duration; a later fixed date written
// into the manifest (and not yet built) is renewed to with a pull request.
func TestActionRenewFixedDate(t *testing.T) {
	needBash(t)
	discgen := buildDiscgen(t)
	path, ghLog := fakeGH(t, "")
	env := []string{"DISCGEN_COMMAND=renew", "DISCGEN_RENEW_DAYS=30", path}
	dir, _ := renewRepo(t, discgen, `"2027-06-01T00:00:00Z"`, time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC))

	r := runAction(t, dir, discgen, append(env, epoch(time.Date(2026, 6, 15, 0, 0, 0, 0, time.UTC)))...)
	if r.status != 0 || r.outputs != "renewed=false\nexpires=2027-06-01T00:00:00Z\npull-request=\n" || !strings.Contains(r.log, "nothing to renew") {
		t.Errorf("a fixed date a year away: status %d, outputs %q\n%s", r.status, r.outputs, r.log)
	}
	may := epoch(time.Date(2027, 5, 15, 0, 0, 0, 0, time.UTC))
	r = runAction(t, dir, discgen, append(env, may)...)
	if r.status != 1 || !strings.Contains(r.log, "the build gives the same Expires (2027-06-01T00:00:00Z): the manifest's expires is a fixed date") {
		t.Errorf("the fixed date within renew-days: status %d\n%s", r.status, r.log)
	}
	if _, err := os.Stat(ghLog); err == nil {
		t.Error("gh was run")
	}
	gitOut(t, dir, "checkout", "--quiet", "--", ".")
	testfs.Write(t, filepath.Join(dir, "site.yaml"), strings.Replace(renewSite, "EXPIRES", `"2028-06-01T00:00:00Z"`, 1))
	gitOut(t, dir, "-c", "user.name=Site Owner", "-c", "user.email=owner@example.org", "commit", "--quiet", "-am", "a later date")
	r = runAction(t, dir, discgen, append(env, may)...)
	if r.status != 0 || r.outputs != "renewed=true\nexpires=2028-06-01T00:00:00Z\npull-request=https://github.com/fict/site/pull/7\n" {
		t.Errorf("a later fixed date in the manifest: status %d, outputs %q\n%s", r.status, r.outputs, r.log)
	}
}
