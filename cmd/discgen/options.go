package main

import (
	"strings"

	"github.com/spf13/pflag"
)

// A command's options are documented once, where each flag is defined:
// its usage string, and the name of its value set by setArgs. The
// "Options:" block of the command's usage (at the {{options}} line) and
// the manual page are written from them, so they cannot drift apart.

// argKey is the flag annotation naming a flag's value in the usage.
const argKey = "discgen-arg"

// setArgs names the values of fs's flags: pairs of flag name and value
// name, such as "file", "FILE".
func setArgs(fs *pflag.FlagSet, pairs ...string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		if err := fs.SetAnnotation(pairs[i], argKey, []string{pairs[i+1]}); err != nil {
			panic(err) // a flag that does not exist: a mistake in this file
		}
	}
}

// flagArg is the name of f's value, "" for a flag that takes none.
func flagArg(f *pflag.Flag) string {
	if a := f.Annotations[argKey]; len(a) > 0 {
		return a[0]
	}
	return ""
}

// usageColumn is where a flag's description starts; usageWidth is the
// width the descriptions are filled to.
const (
	usageColumn = 26
	usageWidth  = 78
)

// optionsBlock writes fs's flags as the usage's "Options:" block, in the
// order they were defined.
func optionsBlock(fs *pflag.FlagSet) string {
	var b strings.Builder
	b.WriteString("Options:\n")
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		left := "        --" + f.Name
		if f.Shorthand != "" {
			left = "    -" + f.Shorthand + ", --" + f.Name
		}
		if a := flagArg(f); a != "" {
			left += " " + a
		}
		b.WriteString(left)
		lines := fill(f.Usage, usageWidth-usageColumn)
		if len(left) >= usageColumn-1 {
			b.WriteString("\n" + strings.Repeat(" ", usageColumn))
		} else {
			b.WriteString(strings.Repeat(" ", usageColumn-len(left)))
		}
		b.WriteString(strings.Join(lines, "\n"+strings.Repeat(" ", usageColumn)))
		b.WriteString("\n")
	})
	return b.String()
}

// fill breaks s into lines of at most width characters at spaces (a
// longer word gets a line of its own).
func fill(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	return append(lines, line)
}

// renderUsage is a command's usage text with its options block written
// from fs.
func renderUsage(text string, fs *pflag.FlagSet) string {
	return strings.Replace(text, "{{options}}\n", optionsBlock(fs), 1)
}

// commandUsage is command name's usage, as name -h prints it.
func commandUsage(name string) string {
	fs := commandFlagSet(name)
	if fs == nil {
		return commands[name].usage // a command without flags
	}
	return renderUsage(commands[name].usage, fs)
}
