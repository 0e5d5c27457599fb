package cli

import (
	"slices"
	"strings"
)

// A Program is a command line's whole description, from which its manual
// page and completion scripts are written.
type Program struct {
	// Name is the executable's name.
	Name string
	// Summary is the manual page's one-line description.
	Summary string
	// Usage is the main usage: "Usage:" and the synopsis, a line of
	// description, "Commands:" with one entry a command (its description
	// continued on lines indented past the names), and "Exit status: ".
	Usage string
	// SeeAlso is the manual page's last section.
	SeeAlso string
	// Commands are the subcommands, in the order they are listed.
	Commands []Command
	// Words are what the first argument completes to beside the commands
	// (help, version), and Described their descriptions where the
	// Commands list of Usage has none.
	Words     []string
	Described map[string]string
	// Args lists the words a command's arguments complete to, where they
	// are not files; Values those of a command's flag. Either may be nil.
	Args   func(command string) []string
	Values func(command, flag string) []string
}

// names returns the first argument's words, sorted.
func (p *Program) names() []string {
	names := slices.Clone(p.Words)
	for _, c := range p.Commands {
		names = append(names, c.Name)
	}
	slices.Sort(names)
	return names
}

func (p *Program) args(command string) []string {
	if p.Args == nil {
		return nil
	}
	return p.Args(command)
}

// values returns the words flag of command completes to, sorted (as every
// shell offers them).
func (p *Program) values(command, flag string) []string {
	if p.Values == nil {
		return nil
	}
	v := slices.Clone(p.Values(command, flag))
	slices.Sort(v)
	return v
}

// summary returns a command's description from the main usage's Commands
// list, up to its first full stop.
func (p *Program) summary(name string) string {
	if s, ok := p.Described[name]; ok {
		return s
	}
	_, list, _ := strings.Cut(p.Usage, "\nCommands:\n")
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
