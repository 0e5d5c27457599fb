package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/serverconf"
	"github.com/spf13/pflag"
)

// The completion scripts are written from the commands table and each
// command's own flag set (commandFlagSet), so a new command or flag
// completes without touching them.

// commandFlags returns the flags of command name: long names and their
// shorthands, and whether each takes a value.
func commandFlags(name string) []*pflag.Flag {
	fs := commandFlagSet(name)
	if fs == nil {
		return nil
	}
	var out []*pflag.Flag
	fs.VisitAll(func(f *pflag.Flag) { out = append(out, f) })
	return out
}

// commandSummary returns a command's description from the main usage's
// Commands list, up to its first full stop.
func commandSummary(name string) string {
	if name == "help" {
		return "Print the usage of discgen or of a command"
	}
	_, list, _ := strings.Cut(usage, "\nCommands:\n")
	var b strings.Builder
	for line := range strings.Lines(list) {
		if rest, ok := strings.CutPrefix(line, "    "+name+" "); ok {
			b.WriteString(strings.TrimSpace(rest))
		} else if b.Len() > 0 && strings.HasPrefix(line, "                ") {
			b.WriteString(" " + strings.TrimSpace(line))
		} else if b.Len() > 0 {
			break
		}
	}
	s, _, _ := strings.Cut(b.String(), ". ")
	return strings.TrimSuffix(s, ".")
}

// completionArgs lists the words a command's arguments complete to, where
// they are not files: preset names, shells.
func completionArgs(name string) []string {
	switch name {
	case "presets":
		return crawlers.Default().Presets()
	case "completion":
		return shells
	case "help":
		return sortedCommands()
	}
	return nil
}

var shells = []string{"bash", "zsh", "fish"}

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

// flagValues lists the words a command's flag completes to, where they
// are not files, in order (as every shell offers them).
func flagValues(name, flag string) []string {
	v := unsortedFlagValues(name, flag)
	return slices.Sorted(slices.Values(v))
}

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
		stdout := e.stdout
		if fs.NArg() != 1 || !slices.Contains(shells, fs.Arg(0)) {
			return usagef("completion: name one shell: bash, zsh or fish")
		}
		names := append(sortedCommands(), "help", "version")
		slices.Sort(names)
		switch fs.Arg(0) {
		case "bash":
			writeBash(stdout, names)
		case "zsh":
			fmt.Fprint(stdout, "#compdef discgen\n# zsh completion for discgen: source <(discgen completion zsh)\n"+
				"(( $+functions[compdef] )) || { autoload -U +X compinit && compinit -D; }\n"+
				"autoload -U +X bashcompinit && bashcompinit\n")
			writeBash(stdout, names)
		case "fish":
			writeFish(stdout, names)
		}
		return nil
	}
}

// flagWords returns a command's flags as typed: --long and -s.
func flagWords(flags []*pflag.Flag) (words, valued []string) {
	words = []string{"--help", "-h"}
	for _, f := range flags {
		w := []string{"--" + f.Name}
		if f.Shorthand != "" {
			w = append(w, "-"+f.Shorthand)
		}
		words = append(words, w...)
		if f.Value.Type() != "bool" {
			valued = append(valued, w...)
		}
	}
	return words, valued
}

func writeBash(w io.Writer, names []string) {
	fmt.Fprintf(w, `# bash completion for discgen: source <(discgen completion bash), or save it
# as ~/.local/share/bash-completion/completions/discgen
_discgen() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W %q -- "$cur"))
    return
  fi
  local flags="" valued="" args="" vals=""
  case ${COMP_WORDS[1]} in
`, strings.Join(names, " "))
	for _, n := range append(sortedCommands(), "help") {
		flags := commandFlags(n)
		words, valued := flagWords(flags)
		fmt.Fprintf(w, "    %s) flags=%q valued=%q args=%q", n, strings.Join(words, " "), strings.Join(valued, " "), strings.Join(completionArgs(n), " "))
		for _, f := range flags {
			if vals := flagValues(n, f.Name); len(vals) > 0 {
				fmt.Fprintf(w, "\n      [[ $prev == --%s ]] && vals=%q", f.Name, strings.Join(vals, " "))
			}
		}
		fmt.Fprint(w, " ;;\n")
	}
	fmt.Fprint(w, `  esac
  # A flag's value: its words if it has some, else files (the default),
  # never another flag.
  if [[ -n $vals ]]; then
    COMPREPLY=($(compgen -W "$vals" -- "$cur"))
    return
  fi
  [[ " $valued " == *" $prev "* ]] && return
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [[ -n $args ]]; then
    COMPREPLY=($(compgen -W "$args" -- "$cur"))
  fi
}
complete -o default -o bashdefault -F _discgen discgen
`)
}

func writeFish(w io.Writer, names []string) {
	fmt.Fprint(w, "# fish completion for discgen: discgen completion fish > ~/.config/fish/completions/discgen.fish\n")
	fmt.Fprint(w, "complete -c discgen -n __fish_use_subcommand -f\n")
	for _, n := range names {
		fmt.Fprintf(w, "complete -c discgen -n __fish_use_subcommand -a %s -d %s\n", n, fishQuote(commandSummary(n)))
	}
	for _, n := range append(sortedCommands(), "help") {
		cond := fishQuote("__fish_seen_subcommand_from " + n)
		for _, f := range commandFlags(n) {
			line := fmt.Sprintf("complete -c discgen -n %s -l %s", cond, f.Name)
			if f.Shorthand != "" {
				line += " -s " + f.Shorthand
			}
			if f.Value.Type() != "bool" {
				line += " -r"
			}
			if vals := flagValues(n, f.Name); len(vals) > 0 {
				line += " -f -a " + fishQuote(strings.Join(vals, " "))
			}
			fmt.Fprintln(w, line)
		}
		if args := completionArgs(n); len(args) > 0 {
			fmt.Fprintf(w, "complete -c discgen -n %s -f -a %s\n", cond, fishQuote(strings.Join(args, " ")))
		}
	}
}

// fishQuote quotes s as one fish word.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
