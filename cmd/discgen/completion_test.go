package main

import (
	"bytes"
	"github.com/discgen/discgen/internal/cli"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// completionScript writes discgen completion SHELL to a file.
func completionScript(t *testing.T, shell string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if err := run([]string{"completion", shell}, &out, &errb); err != nil {
		t.Fatalf("completion %s: %v\n%s", shell, err, errb.String())
	}
	var again bytes.Buffer
	if err := run([]string{"completion", shell}, &again, &errb); err != nil || !bytes.Equal(out.Bytes(), again.Bytes()) {
		t.Fatalf("completion %s: two runs differ", shell)
	}
	f := filepath.Join(t.TempDir(), "discgen."+shell)
	if err := os.WriteFile(f, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// The cases every shell is asked: the words typed, the last one being
// completed, and what must be offered (exactly, in bash).
var completionCases = []struct {
	words []string
	want  []string
}{
	{[]string{"discgen", "bu"}, []string{"build"}},
	{[]string{"discgen", "c"}, []string{"check", "completion"}},
	{[]string{"discgen", "build", "--ch"}, []string{"--check"}},
	{[]string{"discgen", "build", "--dr"}, []string{"--dry-run"}},
	{[]string{"discgen", "lint", "--t"}, []string{"--type"}},
	{[]string{"discgen", "presets", "ai-t"}, []string{"ai-training"}},
	{[]string{"discgen", "completion", "f"}, []string{"fish"}},
	{[]string{"discgen", "help", "val"}, []string{"validate"}},
	// A flag's value is a file (the shell's default), never a flag.
	{[]string{"discgen", "build", "-f", "--"}, nil},
	{[]string{"discgen", "build", "-o", ""}, nil},
	// A flag with a fixed set of values completes to them.
	{[]string{"discgen", "build", "--format", ""}, []string{"github", "json", "text"}},
	{[]string{"discgen", "check", "--format", ""}, []string{"json", "text"}},
	{[]string{"discgen", "validate", "--format", "j"}, []string{"json"}},
	{[]string{"discgen", "build", "--server", "ng"}, []string{"nginx"}},
	{[]string{"discgen", "build", "--progress", "b"}, []string{"bar"}},
}

func TestCompletionBash(t *testing.T) {
	testenv.NeedsTool(t, "bash", "apt-get install bash")
	script := completionScript(t, "bash")
	for _, c := range completionCases {
		got := shellLines(t, "bash", "source "+script+`
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _discgen; printf '%s\n' "${COMPREPLY[@]}"`, c.words)
		if !slices.Equal(got, c.want) {
			t.Errorf("bash %q: %q, want %q", c.words, got, c.want)
		}
	}
}

// zsh runs the bash function through bashcompinit, whose compgen leaves
// the filtering by prefix to zsh's own completion: every wanted word must
// be among those offered, and a flag's value gets none.
func TestCompletionZsh(t *testing.T) {
	testenv.NeedsTool(t, "zsh", "apt-get install zsh; .ci/run installs it")
	script := completionScript(t, "zsh")
	for _, c := range completionCases {
		// A stub compdef spares each run compinit's second of start-up;
		// the script then only loads bashcompinit.
		got := shellLines(t, "zsh", "compdef() { :; }; source "+script+`
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); compgen -F _discgen -- "${@[-1]}"`, c.words)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("zsh %q: %q lacks %q", c.words, got, w)
			}
		}
		if c.want == nil && len(got) > 0 {
			t.Errorf("zsh %q: %q, want nothing", c.words, got)
		}
	}
}

func TestCompletionFish(t *testing.T) {
	testenv.NeedsTool(t, "fish", "apt-get install fish; .ci/run installs it")
	script := completionScript(t, "fish")
	for _, c := range completionCases {
		if c.want == nil {
			continue // fish completes a value flag's files itself (-r)
		}
		line := strings.Join(c.words, " ")
		var got []string
		for _, l := range shellLines(t, "fish", "source "+script+"; complete -C"+cli.FishQuote(line), nil) {
			w, _, _ := strings.Cut(l, "\t")
			got = append(got, w)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("fish %q: %q, want %q", line, got, c.want)
		}
	}
	// Commands come with their description from discgen -h.
	out := shellLines(t, "fish", "source "+script+"; complete -C'discgen ver'", nil)
	if len(out) != 2 || !strings.HasPrefix(out[0], "verify\tFetch every file the build produces") {
		t.Errorf("fish descriptions: %q", out)
	}
}

// shellLines runs script in shell with args as its positional parameters
// and returns its output lines.
func shellLines(t *testing.T, shell, script string, args []string) []string {
	t.Helper()
	cmd := exec.Command(shell, append([]string{"-c", script, shell}, args...)...)
	if shell == "fish" {
		cmd = exec.Command(shell, "--no-config", "-c", script)
	}
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", shell, err, out)
	}
	var lines []string
	for l := range strings.Lines(string(out)) {
		if l = strings.TrimRight(l, "\n"); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}
