package cli

import (
	"strings"

	"github.com/spf13/pflag"
)

// A command's options are documented once, where each flag is defined:
// its usage string, and the name of its value set by SetArgs. The
// "Options:" block of the command's usage (at the {{options}} line) and
// the manual page are written from them.

// argKey is the flag annotation naming a flag's value in the usage.
const argKey = "cli-arg"

// SetArgs names the values of fs's flags: pairs of flag name and value
// name, such as "file", "FILE". It panics on a flag fs does not define,
// a mistake in the caller's table.
func SetArgs(fs *pflag.FlagSet, pairs ...string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		if err := fs.SetAnnotation(pairs[i], argKey, []string{pairs[i+1]}); err != nil {
			panic(err)
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
		lines := Fill(f.Usage)
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

// Fill breaks a flag's description s into the lines of the options
// block, at spaces (a longer word gets a line of its own).
func Fill(s string) []string {
	width := usageWidth - usageColumn
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

// Usage is a command's usage text with its options block written from fs.
func Usage(text string, fs *pflag.FlagSet) string {
	return strings.Replace(text, "{{options}}\n", optionsBlock(fs), 1)
}
