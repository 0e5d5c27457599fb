package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// Shells are the shells Complete writes a script for.
func Shells() []string { return []string{"bash", "zsh", "fish"} }

// Complete writes the completion script of shell (one of Shells) for the
// program: its commands, each command's flags (and the words of those
// that take one of a fixed set), and its arguments' words; files for the
// rest. It reports whether it knows the shell.
func (p *Program) Complete(w io.Writer, shell string) bool {
	switch shell {
	case "bash":
		p.bash(w)
	case "zsh":
		fmt.Fprintf(w, "#compdef %[1]s\n# zsh completion for %[1]s: source <(%[1]s completion zsh)\n"+
			"(( $+functions[compdef] )) || { autoload -U +X compinit && compinit -D; }\n"+
			"autoload -U +X bashcompinit && bashcompinit\n", p.Name)
		p.bash(w)
	case "fish":
		p.fish(w)
	default:
		return false
	}
	return true
}

// completed lists what takes flags or arguments: the commands, sorted,
// then the words with arguments (help COMMAND).
type completed struct {
	name  string
	flags []*pflag.Flag
}

func (p *Program) completed() []completed {
	cs := slices.Clone(p.Commands)
	slices.SortFunc(cs, func(a, b Command) int { return strings.Compare(a.Name, b.Name) })
	var out []completed
	for _, c := range cs {
		out = append(out, completed{c.Name, Flags(c.FlagSet(io.Discard))})
	}
	for _, w := range p.Words {
		if len(p.args(w)) > 0 {
			out = append(out, completed{name: w})
		}
	}
	return out
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

func (p *Program) bash(w io.Writer) {
	fmt.Fprintf(w, `# bash completion for %[1]s: source <(%[1]s completion bash), or save it
# as ~/.local/share/bash-completion/completions/%[1]s
_%[1]s() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W %[2]q -- "$cur"))
    return
  fi
  local flags="" valued="" args="" vals=""
  case ${COMP_WORDS[1]} in
`, p.Name, strings.Join(p.names(), " "))
	for _, c := range p.completed() {
		words, valued := flagWords(c.flags)
		fmt.Fprintf(w, "    %s) flags=%q valued=%q args=%q", c.name, strings.Join(words, " "), strings.Join(valued, " "), strings.Join(p.args(c.name), " "))
		for _, f := range c.flags {
			if vals := p.values(c.name, f.Name); len(vals) > 0 {
				fmt.Fprintf(w, "\n      [[ $prev == --%s ]] && vals=%q", f.Name, strings.Join(vals, " "))
			}
		}
		fmt.Fprint(w, " ;;\n")
	}
	fmt.Fprintf(w, `  esac
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
complete -o default -o bashdefault -F _%[1]s %[1]s
`, p.Name)
}

func (p *Program) fish(w io.Writer) {
	fmt.Fprintf(w, "# fish completion for %[1]s: %[1]s completion fish > ~/.config/fish/completions/%[1]s.fish\n", p.Name)
	fmt.Fprintf(w, "complete -c %s -n __fish_use_subcommand -f\n", p.Name)
	for _, n := range p.names() {
		fmt.Fprintf(w, "complete -c %s -n __fish_use_subcommand -a %s -d %s\n", p.Name, n, FishQuote(p.summary(n)))
	}
	for _, c := range p.completed() {
		cond := FishQuote("__fish_seen_subcommand_from " + c.name)
		for _, f := range c.flags {
			line := fmt.Sprintf("complete -c %s -n %s -l %s", p.Name, cond, f.Name)
			if f.Shorthand != "" {
				line += " -s " + f.Shorthand
			}
			if f.Value.Type() != "bool" {
				line += " -r"
			}
			if vals := p.values(c.name, f.Name); len(vals) > 0 {
				line += " -f -a " + FishQuote(strings.Join(vals, " "))
			}
			fmt.Fprintln(w, line)
		}
		if args := p.args(c.name); len(args) > 0 {
			fmt.Fprintf(w, "complete -c %s -n %s -f -a %s\n", p.Name, cond, FishQuote(strings.Join(args, " ")))
		}
	}
}

// FishQuote quotes s as one fish word.
func FishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
