// Package cli is the machinery of a command line of subcommands, such as
// discgen's: each command's usage text and flag definition kept in one
// table (Command), from which the usage -h prints, the manual page (Man)
// and the shell completion scripts (Bash, Zsh, Fish) are written, so that
// they cannot drift apart; and flag errors worded with a "did you mean"
// hint (Parse). It runs nothing: the caller's table says what each
// command does.
package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/discgen/discgen/internal/editdist"
	"github.com/spf13/pflag"
)

// A Command is one subcommand: its name, its usage text, with an
// "{{options}}" line where its flags' block goes, and the definition of
// its flags.
type Command struct {
	Name  string
	Usage string
	Flags func(fs *pflag.FlagSet)
}

// FlagSet returns c's flags, defined and not parsed, in a set whose -h
// writes c's usage to w.
func (c Command) FlagSet(w io.Writer) *pflag.FlagSet {
	fs := NewFlagSet(c.Name, c.Usage, w)
	c.Flags(fs)
	return fs
}

// NewFlagSet makes a flag set that writes usage, with its options block,
// to w for -h, and leaves error reporting to the caller (Parse).
func NewFlagSet(name, usage string, w io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() { fmt.Fprint(w, Usage(usage, fs)) }
	fs.SortFlags = false
	return fs
}

// ErrHelp is what Parse returns for -h, once the usage is written.
var ErrHelp = errors.New("help shown")

// A FlagError is a mistake in a command's flags: Msg names the flag set,
// and Hint, when set, says which flag was likely meant.
type FlagError struct{ Msg, Hint string }

func (e *FlagError) Error() string { return e.Msg }

// Parse parses args into fs: ErrHelp for -h, a *FlagError for a mistake.
func Parse(fs *pflag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil {
		return nil
	}
	if errors.Is(err, pflag.ErrHelp) {
		return ErrHelp // pflag has written the usage
	}
	fe := &FlagError{Msg: fmt.Sprintf("%s: %v", fs.Name(), err)}
	// --chek, or -check: a long name written with one dash, which pflag
	// reads as the shorthand group c, h, e, c, k.
	var ne *pflag.NotExistError
	if !errors.As(err, &ne) {
		return fe
	}
	name, ok := ne.GetSpecifiedName(), true
	if g := ne.GetSpecifiedShortnames(); g != "" {
		name, ok = g, len(g) > 1
	}
	if ok {
		name, _, _ = strings.Cut(name, "=")
		if s := editdist.Closest(name, flagNames(fs)); s != "" {
			fe.Hint = fmt.Sprintf("did you mean --%s?", s)
		}
	}
	return fe
}

// flagNames lists the long names of fs's flags, in the order they were
// defined.
func flagNames(fs *pflag.FlagSet) []string {
	names := []string{"help"}
	fs.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	return names
}

// Flags returns fs's flags in the order they were defined.
func Flags(fs *pflag.FlagSet) []*pflag.Flag {
	var out []*pflag.Flag
	fs.VisitAll(func(f *pflag.Flag) { out = append(out, f) })
	return out
}
