package main

// Messages. discgen writes to stderr in one grammar:
//
//	FILE:LINE:COL: PATH: MESSAGE           a diagnostic (see package diag)
//	discgen: error: MESSAGE                 anything else that fails
//	discgen: hint: WHAT TO DO NEXT          optional, after an error
//
// lowercase, no final period. Results (verdicts, diffs, the schema) go to
// stdout. Exit status: 0 success; 1 invalid manifest or checked file,
// failed expectation, stale output; 2 usage error.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/discgen/discgen/internal/cli"
	"github.com/discgen/discgen/internal/hostlimits"
	"github.com/spf13/pflag"
)

// usageError is a mistake on the command line: exit status 2. hint, if
// set, is printed before the hint to read the usage, which is the usage
// of cmd when the mistake is in a command's arguments.
type usageError struct{ msg, hint, cmd string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{msg: fmt.Sprintf(format, args...)} }

// errFailed means the command has already reported why it fails: exit 1.
var errFailed = errors.New("failed")

// hintError is an error with a hint line.
type hintError struct {
	err   error
	hints []string
}

func (e *hintError) Error() string { return e.err.Error() }

func exitCode(err error) int {
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		return 2
	}
	return 1
}

// call is one run of a command line: where it writes, and what main read of
// the host's limits at start-up, so that /proc and the cgroup files are
// read once a process.
type call struct {
	stdout, stderr io.Writer
	// limits are all of the host's limits, for a build to size itself by
	// (publish.Options.Limits); nil when main did not read them, and the
	// build reads them itself.
	limits *hostlimits.Limits
	// mem are the host's memory limits (all of them for a build), for a
	// command that reads a file whole to check the file fits (roomFor);
	// nil when main did not read them, and the command reads them.
	mem *hostlimits.Limits
}

// run runs the command line args as a process whose host limits are
// unread (a test's).
func run(args []string, stdout, stderr io.Writer) error {
	return (&call{stdout: stdout, stderr: stderr}).run(args)
}

func (e *call) run(args []string) error {
	err := dispatch(e, args)
	report(e.stderr, err)
	return err
}

// report prints a command's error in the message grammar.
func report(stderr io.Writer, err error) {
	var ue *usageError
	var he *hintError
	switch {
	case err == nil || err == errFailed:
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "discgen: error: %s\n", ue.msg)
		if ue.hint != "" {
			fmt.Fprintf(stderr, "discgen: hint: %s\n", ue.hint)
		}
		if ue.cmd != "" {
			fmt.Fprintf(stderr, "discgen: hint: run 'discgen %s -h' for usage\n", ue.cmd)
		} else {
			fmt.Fprintf(stderr, "discgen: hint: run 'discgen -h' for usage\n")
		}
	case errors.As(err, &he):
		fmt.Fprintf(stderr, "discgen: error: %v\n", he.err)
		for _, h := range he.hints {
			fmt.Fprintf(stderr, "discgen: hint: %s\n", h)
		}
	default:
		fmt.Fprintf(stderr, "discgen: error: %v\n", err)
	}
}

// A command is its usage text and its flags: flags defines them on a flag
// set and returns what runs the command once they are parsed. Usage,
// completion and the manual page read the flags from the same definition
// without running anything.
type command struct {
	usage string
	flags func(fs *pflag.FlagSet) runner
}

// runner runs a command with its flags parsed into fs.
type runner func(e *call, fs *pflag.FlagSet) error

var commands map[string]command

func init() {
	commands = map[string]command{
		"build":      {buildUsage, buildCommand},
		"validate":   {validateUsage, validateCommand},
		"check":      {checkUsage, checkCommand},
		"lint":       {lintUsage, lintCommand},
		"resolve":    {resolveUsage, resolveCommand},
		"schema":     {schemaUsage, schemaCommand},
		"presets":    {presetsUsage, presetsCommand},
		"init":       {initUsage, initCommand},
		"import":     {importUsage, importCommand},
		"verify":     {verifyUsage, verifyCommand},
		"report":     {reportUsage, reportCommand},
		"completion": {completionUsage, completionCommand},
		"man":        {manUsage, manCommand},
	}
}

// commandFlagSet returns the flag set of command name, defined and not
// parsed; nil for a command that does not exist.
func commandFlagSet(name string) *pflag.FlagSet {
	c, ok := commands[name]
	if !ok {
		return nil
	}
	fs := cli.NewFlagSet(name, c.usage, io.Discard)
	c.flags(fs)
	return fs
}

func dispatch(e *call, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return &usageError{msg: "no command given"}
	}
	switch args[0] {
	case "-h", "--help", "help":
		if len(args) > 1 {
			if _, ok := commands[args[1]]; ok {
				fmt.Fprint(stdout, commandUsage(args[1]))
				return nil
			}
		}
		fmt.Fprint(stdout, usage)
		return nil
	case "--version", "version":
		fmt.Fprintln(stdout, versionLine())
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		if s := closestCommand(args[0]); s != "" && !strings.HasPrefix(args[0], "-") {
			return &usageError{msg: fmt.Sprintf("unknown command %q", args[0]), hint: fmt.Sprintf("did you mean 'discgen %s'?", s)}
		}
		return usagef("unknown command %q", args[0])
	}
	fs := cli.NewFlagSet(args[0], c.usage, stdout)
	run := c.flags(fs)
	err := parseFlags(fs, args[1:])
	switch {
	case errors.Is(err, cli.ErrHelp):
		return nil
	case err == nil:
		err = run(e, fs)
	}
	if ue := (*usageError)(nil); errors.As(err, &ue) && ue.cmd == "" {
		ue.cmd = args[0]
	}
	return err
}

// parseFlags parses args (cli.Parse); a mistake is a usage error.
func parseFlags(fs *pflag.FlagSet, args []string) error {
	var fe *cli.FlagError
	if err := cli.Parse(fs, args); errors.As(err, &fe) {
		return &usageError{msg: fe.Msg, hint: fe.Hint}
	} else {
		return err
	}
}

// parseNow reads --now: RFC 3339, a date (midnight UTC) or a Unix time;
// without it, SOURCE_DATE_EPOCH, then the clock.
func parseNow(s string) (time.Time, error) {
	if s == "" {
		if env := os.Getenv("SOURCE_DATE_EPOCH"); env != "" {
			n, err := strconv.ParseInt(env, 10, 64)
			if err != nil {
				return time.Time{}, usagef("SOURCE_DATE_EPOCH=%q is not a Unix time in seconds", env)
			}
			return time.Unix(n, 0).UTC(), nil
		}
		return time.Now().UTC(), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	if n, err := strconv.ParseInt(strings.TrimPrefix(s, "@"), 10, 64); err == nil {
		return time.Unix(n, 0).UTC(), nil
	}
	return time.Time{}, usagef("--now %q: use RFC 3339 (2026-01-02T15:04:05Z), a date (2026-01-02) or @UNIXSECONDS", s)
}
