package main

import (
	"github.com/discgen/discgen/internal/cli"
	"slices"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/serverconf"
	"github.com/spf13/pflag"
)

// The completion scripts are written from the commands table and each
// command's own flag set (commandFlagSet), so a new command or flag
// completes without touching them.

// program is discgen's command line as package cli describes it: the
// manual page and the completion scripts are written from it.
func program() *cli.Program {
	p := &cli.Program{
		Name: "discgen", Summary: "publish web discovery files from one YAML manifest",
		Usage: usage, SeeAlso: "The project's README and docs/ directory.",
		Words:     []string{"help", "version"},
		Described: map[string]string{"help": "Print the usage of discgen or of a command"},
		Args:      completionArgs, Values: unsortedFlagValues,
	}
	for _, name := range sortedCommands() {
		c := commands[name]
		p.Commands = append(p.Commands, cli.Command{Name: name, Usage: c.usage, Flags: func(fs *pflag.FlagSet) { c.flags(fs) }})
	}
	return p
}

// completionArgs lists the words a command's arguments complete to, where
// they are not files: preset names, shells.
func completionArgs(name string) []string {
	switch name {
	case "presets":
		return crawlers.Default().Presets()
	case "completion":
		return cli.Shells()
	case "help":
		return sortedCommands()
	}
	return nil
}

// formats lists each command's --format values, which the command checks.
var formats = map[string][]string{
	"build":    {"text", "json", "github"},
	"check":    {"text", "json"},
	"lint":     {"text", "json", "github"},
	"presets":  {"text", "json"},
	"resolve":  {"text", "json"},
	"validate": {"text", "json", "github"},
	"verify":   {"text", "json", "github"},
}

// unsortedFlagValues lists the words a command's flag completes to, where
// they are not files.
func unsortedFlagValues(name, flag string) []string {
	switch {
	case flag == "format":
		return formats[name]
	case name == "build" && flag == "server":
		var kinds []string
		for _, k := range serverconf.Kinds() {
			kinds = append(kinds, string(k))
		}
		return kinds
	case name == "build" && flag == "progress":
		return progressValues
	}
	return nil
}

// sortedCommands returns the commands' names in order, so that the scripts
// are the same bytes every run.
func sortedCommands() []string {
	names := commandNames()
	slices.Sort(names)
	return names
}

func completionCommand(fs *pflag.FlagSet) runner {
	return func(e *call, fs *pflag.FlagSet) error {
		if fs.NArg() != 1 || !program().Complete(e.stdout, fs.Arg(0)) {
			return usagef("completion: name one shell: bash, zsh or fish")
		}
		return nil
	}
}
