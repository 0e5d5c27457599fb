package cli

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func testProgram() *Program {
	return &Program{
		Name: "tool", Summary: "does things",
		Usage: "tool does things.\n\nUsage:\n    tool run [-n N]\n\nCommands:\n    run         Run it. Twice\n                if asked.\n\nExit status: 0 success;\n2 usage error.\n",
		Commands: []Command{{Name: "run", Usage: "Usage: tool run [options]\n\n{{options}}\n", Flags: func(fs *pflag.FlagSet) {
			fs.IntP("count", "n", 1, "how many times")
			fs.Bool("check", false, "check only")
			SetArgs(fs, "count", "N")
		}}},
		Words:  []string{"help"},
		Args:   func(c string) []string { return map[string][]string{"help": {"run"}}[c] },
		Values: func(c, f string) []string { return map[string][]string{"count": {"2", "1"}}[f] },
	}
}

// A long flag misspelt, or written with one dash, is a FlagError naming
// the flag meant; -h writes the usage, options block included.
func TestParse(t *testing.T) {
	for _, arg := range []string{"--chek", "-check", "--chek=1"} {
		var fe *FlagError
		err := Parse(testProgram().Commands[0].FlagSet(io.Discard), []string{arg})
		if !errors.As(err, &fe) || fe.Hint != "did you mean --check?" || !strings.HasPrefix(fe.Msg, "run: ") {
			t.Errorf("%s: %v (%+v)", arg, err, fe)
		}
	}
	var w bytes.Buffer
	if err := Parse(testProgram().Commands[0].FlagSet(&w), []string{"-h"}); err != ErrHelp {
		t.Fatalf("-h: %v", err)
	}
	want := "Usage: tool run [options]\n\nOptions:\n    -n, --count N         how many times\n        --check           check only\n"
	if w.String() != want {
		t.Errorf("-h wrote\n%q, want\n%q", w.String(), want)
	}
}

// The manual page and the scripts are the same bytes each time, and name
// every command and flag.
func TestManAndCompletion(t *testing.T) {
	p := testProgram()
	man := p.Man()
	if man != testProgram().Man() || !strings.Contains(man, `\fB\-n\fR, \fB\-\-count\fR \fIN\fR`) || !strings.Contains(man, ".SH EXIT STATUS\nExit status: 0 success; 2 usage error.\n") {
		t.Errorf("man page:\n%s", man)
	}
	for _, sh := range Shells() {
		var a, b bytes.Buffer
		if !p.Complete(&a, sh) || !p.Complete(&b, sh) || a.String() != b.String() || !strings.Contains(a.String(), "count") {
			t.Errorf("%s script:\n%s", sh, a.String())
		}
	}
	var fish bytes.Buffer
	p.Complete(&fish, "fish")
	for _, line := range []string{
		"complete -c tool -n __fish_use_subcommand -a run -d 'Run it'",
		"complete -c tool -n '__fish_seen_subcommand_from run' -l count -s n -r -f -a '1 2'",
		"complete -c tool -n '__fish_seen_subcommand_from help' -f -a 'run'",
	} {
		if !strings.Contains(fish.String(), line+"\n") {
			t.Errorf("fish script lacks %q:\n%s", line, fish.String())
		}
	}
	if p.Complete(io.Discard, "csh") {
		t.Error("a script for csh")
	}
}

// A release's stamped version and commit win; a development build's ID
// names its executable, so that a rebuilt binary is another.
func TestVersion(t *testing.T) {
	if Version("1.2.3") != "1.2.3" || Commit("abc") != "abc" || BuildID("1.2.3") != "1.2.3" {
		t.Errorf("a release's: %s %s %s", Version("1.2.3"), Commit("abc"), BuildID("1.2.3"))
	}
	if v := Version(""); v == "" {
		t.Error("no version")
	}
	if id := BuildID("(devel)"); !strings.HasPrefix(id, "(devel) ") || len(strings.Fields(id)) != 3 {
		t.Errorf("a development build's ID %q, want the executable's size and time", id)
	}
}
