package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/internal/testing/testfs"
	"go.yaml.in/yaml/v3"
)

// actionYAML is the part of action.yml the tests read.
type actionYAML struct {
	Inputs  map[string]struct{ Default string } `yaml:"inputs"`
	Outputs map[string]struct{ Value string }   `yaml:"outputs"`
	Runs    struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID   string            `yaml:"id"`
			If   string            `yaml:"if"`
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			With map[string]string `yaml:"with"`
			Env  map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

func readAction(t *testing.T) actionYAML {
	t.Helper()
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a actionYAML
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// The Action's inputs and outputs are its interface: workflows name them.
// A release is downloaded, not compiled; a compiled binary comes from a
// cache keyed on version and runner, restored before the compile and saved
// right after it, and Go is set up only where the runner has none. The
// actions it uses are pinned by commit.
func TestActionMetadata(t *testing.T) {
	a := readAction(t)
	for _, in := range []string{"version", "command", "manifest", "output", "env", "args"} {
		if _, ok := a.Inputs[in]; !ok {
			t.Errorf("action.yml has no %q input", in)
		}
	}
	for _, out := range []string{"changed", "stale"} {
		if v := a.Outputs[out].Value; v != "${{ steps.run.outputs."+out+" }}" {
			t.Errorf("output %q has value %q, want the run step's", out, v)
		}
	}
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using = %q", a.Runs.Using)
	}
	const source = "steps.tool.outputs.mode == 'source'"
	var restored, saved, installed int
	for i, s := range a.Runs.Steps {
		if s.Uses != "" && !regexp.MustCompile(`^[a-z-]+/[a-z/-]+@[0-9a-f]{40}$`).MatchString(s.Uses) {
			t.Errorf("step %d uses %q: pin it by commit", i, s.Uses)
		}
		switch {
		case strings.HasPrefix(s.Uses, "actions/cache/restore@"):
			restored = i
			if s.ID != "restore" || !strings.Contains(s.With["key"], "steps.tool.outputs.key") || !strings.Contains(s.If, source) {
				t.Errorf("restore step %+v: want id restore, the tool step's key, only for a compile", s)
			}
		case strings.HasPrefix(s.Uses, "actions/cache/save@"):
			saved = i
			if !strings.Contains(s.With["key"], "steps.tool.outputs.key") || !strings.Contains(s.If, source) || !strings.Contains(s.If, "steps.restore.outputs.cache-hit != 'true'") {
				t.Errorf("save step with if %q, key %q: want the tool step's key, only after a compile", s.If, s.With["key"])
			}
		case strings.HasPrefix(s.Uses, "actions/cache@"):
			t.Errorf("step %d: actions/cache restores and saves in one; want restore and save steps", i)
		case strings.HasPrefix(s.Uses, "actions/setup-go@"):
			if !strings.Contains(s.If, "steps.tool.outputs.go != 'true'") || !strings.Contains(s.If, "cache-hit != 'true'") || !strings.Contains(s.If, source) {
				t.Errorf("setup-go runs with if %q: it must run only for a compile on a cache miss on a runner without go", s.If)
			}
		case strings.Contains(s.Run, "install.sh\" install"):
			installed = i
			if !strings.Contains(s.If, "steps.restore.outputs.cache-hit != 'true'") {
				t.Errorf("install step runs with if %q: want it skipped on a cache hit", s.If)
			}
		}
		for _, m := range regexp.MustCompile(`action/[a-z]+\.sh`).FindAllString(s.Run, -1) {
			if _, err := os.Stat("../../" + m); err != nil {
				t.Errorf("step %q runs %s: %v", s.ID, m, err)
			}
		}
	}
	if !(restored > 0 && restored < installed && installed < saved) {
		t.Errorf("steps: restore %d, install %d, save %d: want them in that order", restored, installed, saved)
	}
}

// The flags the Action's script passes must exist: a renamed flag would
// break every workflow that uses it.
func TestActionUsesRealFlags(t *testing.T) {
	script, err := os.ReadFile("../../action/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	fs := commandFlagSet("build")
	flags := regexp.MustCompile(`\(?\s--[a-z][a-z-]*`).FindAllString(string(script), -1)
	if len(flags) < 6 {
		t.Fatalf("found only %v in the action's script", flags)
	}
	for _, fl := range flags {
		name := strings.TrimLeft(fl, "( \t-")
		if fs.Lookup(name) == nil {
			t.Errorf("action/run.sh passes --%s, which discgen build does not define", name)
		}
	}
}

// actionRun is one run of action/run.sh with a fake runner environment.
type actionRun struct {
	status           int
	log              string // stdout and stderr
	outputs, summary string
}

func runAction(t *testing.T, dir, discgen string, env ...string) actionRun {
	t.Helper()
	script, err := filepath.Abs("../../action/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	runner := t.TempDir()
	out, sum := filepath.Join(runner, "output"), filepath.Join(runner, "summary")
	cmd := exec.Command("bash", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DISCGEN="+discgen, "GITHUB_OUTPUT="+out, "GITHUB_STEP_SUMMARY="+sum,
		"GITHUB_ACTIONS=true", "SOURCE_DATE_EPOCH=1793491200")
	cmd.Env = append(cmd.Env, env...)
	log, err := cmd.CombinedOutput()
	r := actionRun{log: string(log)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	o, _ := os.ReadFile(out)
	s, _ := os.ReadFile(sum)
	r.outputs, r.summary = string(o), string(s)
	return r
}

func needBash(t *testing.T) {
	t.Helper()
	testenv.NeedsTool(t, "bash", "apt-get install bash")
}

// buildDiscgen returns the discgen command for a script to run: this test
// binary, which TestMain (testscript.Main) copied as "discgen" into a
// directory it put first on PATH, and which runs as discgen under that
// name. It costs no go build: a build with the module's own flags would
// compile the package again and link it for each test.
func buildDiscgen(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("discgen")
	if err != nil {
		t.Fatalf("no discgen on PATH, where TestMain puts this test binary: %v", err)
	}
	return bin
}

const actionSite = `version: 1
site: {url: "https://example.org/", description: "Example"}
agents: [{names: ["*"], disallow: [/private/]}]
`

func TestActionScript(t *testing.T) {
	needBash(t)
	discgen := buildDiscgen(t)
	dir := t.TempDir()
	testfs.Write(t, filepath.Join(dir, "site.yaml"), actionSite)

	// build into an empty directory: every file added.
	r := runAction(t, dir, discgen, "DISCGEN_COMMAND=build")
	if r.status != 0 || r.outputs != "changed=true\nstale=true\n" {
		t.Fatalf("first build: status %d, outputs %q\n%s", r.status, r.outputs, r.log)
	}
	for _, want := range []string{"## discgen build\n", "| `public/robots.txt` | added |", "| `public/autodisc/description.txt` | added |", "passed, 0 error(s), 0 warning(s)"} {
		if !strings.Contains(r.summary, want) {
			t.Errorf("first build's summary lacks %q:\n%s", want, r.summary)
		}
	}

	// Again: nothing to do.
	r = runAction(t, dir, discgen, "DISCGEN_COMMAND=build")
	if r.status != 0 || r.outputs != "changed=false\nstale=false\n" || !strings.Contains(r.summary, "Output up to date") {
		t.Fatalf("second build: status %d, outputs %q\n%s\n%s", r.status, r.outputs, r.log, r.summary)
	}

	// A clone without the state directory: the files are adopted, not
	// written, and the records the build writes are a change to commit.
	if err := os.RemoveAll(filepath.Join(dir, ".discgen")); err != nil {
		t.Fatal(err)
	}
	r = runAction(t, dir, discgen, "DISCGEN_COMMAND=build")
	if r.status != 0 || r.outputs != "changed=true\nstale=false\n" || !strings.Contains(r.log, " adopted\n") {
		t.Fatalf("build without state: status %d, outputs %q\n%s\n%s", r.status, r.outputs, r.log, r.summary)
	}

	// check after a manifest change: one annotation per stale file, on
	// its path (and first line that differs); the summary lists them and
	// shows the diff.
	testfs.Write(t, filepath.Join(dir, "site.yaml"), strings.Replace(actionSite, `description: "Example"`, "", 1)+"files: {x-contact.txt: ops@example.org}\n")
	r = runAction(t, dir, discgen, "DISCGEN_COMMAND=check")
	if r.status != 1 || r.outputs != "changed=false\nstale=true\n" {
		t.Fatalf("check: status %d, outputs %q\n%s", r.status, r.outputs, r.log)
	}
	annotations := regexp.MustCompile(`(?m)^::error file=([^,]*)((?:,line=\d+,col=\d+)?),title=discgen::(.*)$`).FindAllStringSubmatch(r.log, -1)
	got := map[string]string{}
	for _, a := range annotations {
		got[a[1]] = a[2] + " " + a[3]
	}
	// A stale file's annotation is on its first line that differs.
	want := map[string]string{
		"public/autodisc/description.txt": " stale: discgen no longer produces it",
		"public/autodisc/x-contact.txt":   " missing: discgen build would write it",
		"public/autodisc/index.txt":       ",line=1,col=1 stale from line 1: discgen build would rewrite it",
	}
	if len(annotations) != len(want) {
		t.Errorf("check: %d annotations, want %d:\n%s", len(annotations), len(want), r.log)
	}
	for file, msg := range want {
		if !strings.HasPrefix(got[file], msg) {
			t.Errorf("check: annotation on %s = %q, want %q...", file, got[file], msg)
		}
	}
	for _, want := range []string{"## discgen build --check\n", "**failed** (exit status 1), 3 error(s)",
		"| `public/autodisc/description.txt` | would be removed |", "| `public/autodisc/x-contact.txt` | would be added |",
		"| `public/autodisc/index.txt` | would be changed |", "```diff\n", "+x-contact.txt\n",
		"- **error** `public/autodisc/x-contact.txt`: missing: discgen build would write it"} {
		if !strings.Contains(r.summary, want) {
			t.Errorf("check's summary lacks %q:\n%s", want, r.summary)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "public/autodisc/x-contact.txt")); err == nil {
		t.Error("check wrote a file")
	}

	// lint with no file named lints what the build wrote.
	r = runAction(t, dir, discgen, "DISCGEN_COMMAND=lint")
	if r.status != 0 || !strings.Contains(r.summary, "Linted 4 file(s): passed") {
		t.Errorf("lint: status %d\n%s\n%s", r.status, r.log, r.summary)
	}
	// The files of the 2026 kinds found there are linted too.
	testfs.Write(t, filepath.Join(dir, "public/ads.txt"), "google.com, pub-0000000000000000, FRIENDS\n")
	r = runAction(t, dir, discgen, "DISCGEN_COMMAND=lint")
	if r.status != 1 || !strings.Contains(r.summary, "Linted 5 file(s)") || !strings.Contains(r.log, "file=public/ads.txt") {
		t.Errorf("lint with an ads.txt: status %d\n%s\n%s", r.status, r.log, r.summary)
	}
}

// Manifest diagnostics and refused takeovers are annotations too, and the
// summary lists them with their positions.
func TestActionScriptErrors(t *testing.T) {
	needBash(t)
	discgen := buildDiscgen(t)

	dir := t.TempDir()
	testfs.Write(t, filepath.Join(dir, "site.yaml"), "version: 1\nsite: {url: \"https://example.org/\"}\nagents: [{names: [\"Google bot\"], disallow: [/]}]\n")
	r := runAction(t, dir, discgen, "DISCGEN_COMMAND=validate")
	if r.status != 1 || r.outputs != "changed=false\nstale=false\n" {
		t.Fatalf("validate: status %d, outputs %q\n%s", r.status, r.outputs, r.log)
	}
	if !regexp.MustCompile(`(?m)^::error file=site.yaml,line=3,col=\d+,title=discgen::agents\[0\]\.names\[0\]: "Google bot"`).MatchString(r.log) {
		t.Errorf("validate: no annotation at site.yaml:3:\n%s", r.log)
	}
	if !regexp.MustCompile("- \\*\\*error\\*\\* `site.yaml:3:\\d+`: agents\\[0\\]\\.names\\[0\\]: \"Google bot\"").MatchString(r.summary) {
		t.Errorf("validate's summary does not list the error:\n%s", r.summary)
	}

	// A build of a manifest refused as invalid writes nothing; the output
	// is not what a manifest produces, and the summary says why no
	// change can be listed yet.
	r = runAction(t, dir, discgen, "DISCGEN_COMMAND=build")
	if r.status != 1 || r.outputs != "changed=false\nstale=true\n" {
		t.Errorf("invalid manifest's build: status %d, outputs %q\n%s", r.status, r.outputs, r.log)
	}
	if !strings.Contains(r.summary, "**Nothing was written.**") || !strings.Contains(r.summary, "the changes a build will make are listed once the manifest is valid") {
		t.Errorf("invalid manifest's build summary:\n%s", r.summary)
	}

	dir = t.TempDir()
	testfs.Write(t, filepath.Join(dir, "site.yaml"), actionSite)
	testfs.Write(t, filepath.Join(dir, "public/robots.txt"), "User-agent: *\n")
	r = runAction(t, dir, discgen, "DISCGEN_COMMAND=build")
	if r.status != 1 || r.outputs != "changed=false\nstale=true\n" {
		t.Fatalf("refused build: status %d, outputs %q\n%s", r.status, r.outputs, r.log)
	}
	if !regexp.MustCompile(`(?m)^::error file=public/robots.txt,title=discgen::exists and was not written by discgen.*%0Ahint: `).MatchString(r.log) {
		t.Errorf("refused build: no annotation on public/robots.txt:\n%s", r.log)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "public/robots.txt")); string(data) != "User-agent: *\n" {
		t.Errorf("refused build changed robots.txt: %q", data)
	}
	// The summary says nothing was written, and why; what the dry run
	// planned is what a build would do once the errors are fixed.
	if !strings.Contains(r.summary, "**failed** (exit status 1)") || !strings.Contains(r.summary, "**Nothing was written.**") ||
		!strings.Contains(r.summary, "a build will make these changes") || !strings.Contains(r.summary, "| would be added |") {
		t.Errorf("refused build's summary:\n%s", r.summary)
	}
	if regexp.MustCompile(`\| (added|changed|removed) \|`).MatchString(r.summary) {
		t.Errorf("refused build's summary lists files as written:\n%s", r.summary)
	}

	r = runAction(t, dir, discgen, "DISCGEN_COMMAND=deploy")
	if r.status != 2 || !strings.Contains(r.log, "::error title=discgen action::command must be validate, build, check, lint or renew, not \"deploy\"") {
		t.Errorf("unknown command: status %d\n%s", r.status, r.log)
	}
}

// args reach discgen as written: split at blanks, or one per line, and
// never glob-expanded, even with matching files in the directory.
func TestActionArgs(t *testing.T) {
	needBash(t)
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake-discgen")
	// The fake records its arguments, one per line, and exits 0.
	testfs.Write(t, fake, "#!/usr/bin/env bash\nprintf 'ARG<%s>\\n' \"$@\" >>\"$ARGS_LOG\"\n")
	if err := os.Chmod(fake, 0o755); err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, filepath.Join(dir, "a.yaml"), "")
	testfs.Write(t, filepath.Join(dir, "b.yaml"), "")
	for _, tc := range []struct{ args, want string }{
		{"--env * --now 2026-11-01", "<--env><*><--now><2026-11-01>"},
		{"  --replace\t*.yaml  ", "<--replace><*.yaml>"},
		{"--now\n2026-11-01T00:00:00Z\n\n--env\nmy env *\n", "<--now><2026-11-01T00:00:00Z><--env><my env *>"},
		{"$HOME `id` \"a b\"", "<$HOME><`id`><\"a><b\">"},
		{"", ""},
	} {
		log := filepath.Join(t.TempDir(), "args")
		r := runAction(t, dir, fake, "DISCGEN_COMMAND=validate", "DISCGEN_ARGS="+tc.args, "ARGS_LOG="+log)
		if r.status != 0 {
			t.Fatalf("args %q: status %d\n%s", tc.args, r.status, r.log)
		}
		data, _ := os.ReadFile(log)
		got := strings.ReplaceAll(strings.ReplaceAll(string(data), "ARG", ""), "\n", "")
		want := "<validate><--file><site.yaml><--format><github>" + tc.want
		if got != want {
			t.Errorf("args %q reached discgen as\n%s\nwant\n%s", tc.args, got, want)
		}
	}
}

// The cache key names the version and the runner; the action's own source
// is keyed by its content. A release is downloaded; a commit, or the
// action's own source at a ref that is not a release, is compiled.
func TestActionInstallKey(t *testing.T) {
	needBash(t)
	key := func(env ...string) (string, int) {
		cmd := exec.Command("bash", "../../action/install.sh", "key")
		cmd.Env = append(os.Environ(), "GITHUB_OUTPUT=", "GITHUB_ACTION_REF=", "RUNNER_OS=Linux", "RUNNER_ARCH=X64", "RUNNER_TOOL_CACHE=/opt/hostedtoolcache")
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		}
		return string(out), 0
	}
	out, st := key("DISCGEN_VERSION=v1.2.3")
	if want := "mode=release\nversion=v1.2.3\ndir=/opt/hostedtoolcache/discgen/v1.2.3-Linux-X64\nkey=discgen-v1.2.3-Linux-X64\n"; st != 0 || !strings.HasPrefix(out, want) {
		t.Errorf("v1.2.3: status %d\n%s\nwant it to begin\n%s", st, out, want)
	}
	if out, _ := key("GITHUB_ACTION_REF=v1.4.0"); !strings.HasPrefix(out, "mode=release\nversion=v1.4.0\n") {
		t.Errorf("uses: @v1.4.0 with no version:\n%s", out)
	}
	commit := strings.Repeat("0123456789", 4)
	if out, _ := key("DISCGEN_VERSION=" + commit); !strings.HasPrefix(out, "mode=source\nversion="+commit+"\n") {
		t.Errorf("a commit:\n%s", out)
	}
	src1, _ := key("DISCGEN_VERSION=")
	src2, _ := key("DISCGEN_VERSION=", "GITHUB_ACTION_REF=v1")
	if !regexp.MustCompile(`^mode=source\nversion=\ndir=.*\nkey=discgen-src-[0-9a-f]{16}-Linux-X64\n`).MatchString(src1) || src1 != src2 {
		t.Errorf("own source: keys %q and %q", src1, src2)
	}
	for _, v := range []string{"latest", "main", "v1", "v1.2.3; rm -rf /"} {
		if out, st := key("DISCGEN_VERSION=" + v); st != 2 || !strings.Contains(out, "::error") {
			t.Errorf("version %q: status %d, want 2 with an annotation\n%s", v, st, out)
		}
	}
}

// A commit, or the action's own source at a ref that is not a release, is
// compiled, statically, and the log says so. A fake go records how it was
// called.
func TestActionInstallCompiles(t *testing.T) {
	needBash(t)
	bin := t.TempDir()
	record := filepath.Join(t.TempDir(), "go.log")
	// The fake writes a discgen that prints its version, where -o or
	// GOBIN says.
	testfs.Write(t, filepath.Join(bin, "go"), `#!/usr/bin/env bash
echo "CGO_ENABLED=$CGO_ENABLED GOTOOLCHAIN=$GOTOOLCHAIN go $*" >>"$GO_LOG"
out=$GOBIN/discgen
while [[ $# -gt 0 ]]; do [[ $1 == -o ]] && out=$2; shift; done
printf '#!/usr/bin/env bash\necho discgen compiled\n' >"$out"
chmod +x "$out"
`)
	if err := os.Chmod(filepath.Join(bin, "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	commit := strings.Repeat("0123456789", 4)
	for _, tc := range []struct{ version, ref, log, goCall string }{
		{"", "v1", "discgen: compiling the action's own source at v1 (a ref that is not a release; set version: to a release to download it instead)\n",
			"CGO_ENABLED=0 GOTOOLCHAIN=auto go build -trimpath -o "},
		// An action used from a path (uses: ./) has no ref.
		{"", "", "discgen: compiling the action's own source (used from a path, with no ref to download; set version: to a release to download it instead)\n",
			"CGO_ENABLED=0 GOTOOLCHAIN=auto go build -trimpath -o "},
		{commit, "", "discgen: compiling commit " + commit + " with go install (a commit has no release archive)\n",
			"CGO_ENABLED=0 GOTOOLCHAIN=auto go install -trimpath github.com/discgen/discgen/cmd/discgen@" + commit + "\n"},
	} {
		os.Remove(record)
		dir := filepath.Join(t.TempDir(), "tool")
		cmd := exec.Command("bash", "../../action/install.sh", "install")
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GO_LOG="+record,
			"DISCGEN_VERSION="+tc.version, "GITHUB_ACTION_REF="+tc.ref, "DISCGEN_DIR="+dir, "DISCGEN_DOWNLOAD_BASE=http://127.0.0.1:9/unused")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), tc.log) || !strings.HasSuffix(string(out), "discgen compiled\n") {
			t.Errorf("version %q: %v\n%s\nwant the log to say %q", tc.version, err, out, tc.log)
		}
		calls, _ := os.ReadFile(record)
		if !strings.HasPrefix(string(calls), tc.goCall) {
			t.Errorf("version %q: go called as\n%s\nwant %q", tc.version, calls, tc.goCall)
		}
	}
}

// The Action's snippets in README.md and docs/github-action.md list every
// command action/run.sh takes, and README.md says where a stale file's
// annotation goes.
func TestActionSnippetsNameEveryCommand(t *testing.T) {
	run, err := os.ReadFile("../../action/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	var commands []string
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z]+)\)(?: |$)`).FindAllStringSubmatch(string(run), -1) {
		commands = append(commands, m[1])
	}
	if len(commands) < 5 {
		t.Fatalf("action/run.sh: found commands %q", commands)
	}
	want := "command: check          # " + strings.Join(commands, " | ")
	for _, doc := range []string{"../../README.md", "../../docs/github-action.md"} {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(text), want) {
			t.Errorf("%s: the Action's snippet does not read %q", doc, want)
		}
	}
	readme, _ := os.ReadFile("../../README.md")
	if strings.Contains(string(readme), "annotation on each line at fault") {
		t.Error("README.md says a stale pull request has an annotation on each line at fault; it has one per file, on its first line that differs")
	}
}
