package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// The manual page, discgen(1), is written from the same texts as -h: the
// main usage, each command's usage and each command's flag set.

const manUsage = `Usage: discgen man

Print discgen's manual page, discgen(1), in roff: the usage of every
command and its options, as -h prints them.

Example:
    discgen man > discgen.1 && man -l discgen.1
`

func manCommand(fs *pflag.FlagSet) runner {
	return func(e *call, fs *pflag.FlagSet) error {
		stdout := e.stdout
		if fs.NArg() != 0 {
			return usagef("man: unexpected argument %q", fs.Arg(0))
		}
		_, err := io.WriteString(stdout, manPage())
		return err
	}
}

// manPage renders the page. Its bytes depend only on the usage texts and
// the flags, not on the clock or the version, so that a release rebuilds
// the same page.
func manPage() string {
	var b strings.Builder
	b.WriteString(".TH DISCGEN 1 \"\" \"discgen\" \"User Commands\"\n")
	b.WriteString(".SH NAME\ndiscgen \\- publish web discovery files from one YAML manifest\n")
	head, rest, _ := strings.Cut(usage, "\nCommands:\n")
	_, synopsis, _ := strings.Cut(head, "Usage:\n")
	b.WriteString(".SH SYNOPSIS\n")
	roffBlock(&b, synopsis)
	commandsList, tail, _ := strings.Cut(rest, "\n\n")
	b.WriteString(".SH DESCRIPTION\n")
	roffText(&b, strings.TrimSpace(strings.SplitN(head, "\n", 2)[0]))
	roffBlock(&b, commandsList)
	b.WriteString(".SH COMMANDS\n")
	for _, name := range sortedCommands() {
		fmt.Fprintf(&b, ".SS \"discgen %s\"\n", name)
		c := commands[name]
		text := c.usage
		fs := commandFlagSet(name)
		before, after, hasOptions := strings.Cut(text, "{{options}}\n")
		roffUsage(&b, before)
		if hasOptions && fs != nil {
			b.WriteString(".PP\nOptions:\n")
			fs.VisitAll(func(f *pflag.Flag) {
				if f.Hidden || f.Name == "help" {
					return
				}
				b.WriteString(".TP\n")
				if f.Shorthand != "" {
					fmt.Fprintf(&b, "\\fB\\-%s\\fR, ", roffEscape(f.Shorthand))
				}
				fmt.Fprintf(&b, "\\fB\\-\\-%s\\fR", roffEscape(f.Name))
				if a := flagArg(f); a != "" {
					fmt.Fprintf(&b, " \\fI%s\\fR", roffEscape(a))
				}
				b.WriteString("\n")
				roffText(&b, f.Usage)
			})
		}
		roffUsage(&b, after)
	}
	b.WriteString(".SH EXIT STATUS\n")
	_, status, _ := strings.Cut(tail, "Exit status: ")
	status, _, _ = strings.Cut(status, "\n\n")
	roffText(&b, "Exit status: "+strings.Join(strings.Fields(status), " "))
	b.WriteString(".SH SEE ALSO\nThe project's README and docs/ directory.\n")
	return b.String()
}

// roffUsage writes a usage text: paragraphs of prose filled, indented
// blocks (examples, lists) as they are.
func roffUsage(b *strings.Builder, text string) {
	for _, para := range strings.Split(strings.Trim(text, "\n"), "\n\n") {
		if para == "" || strings.HasPrefix(para, "Usage: ") {
			continue
		}
		first, _, _ := strings.Cut(para, "\n")
		if strings.HasPrefix(first, " ") || strings.HasSuffix(first, ":") && strings.Contains(para, "\n ") {
			roffBlock(b, para)
			continue
		}
		b.WriteString(".PP\n")
		roffText(b, strings.Join(strings.Fields(para), " "))
	}
}

// roffText writes filled text, one sentence stretch per line.
func roffText(b *strings.Builder, s string) {
	b.WriteString(roffLine(s) + "\n")
}

// roffBlock writes lines as they are, not filled.
func roffBlock(b *strings.Builder, s string) {
	b.WriteString(".PP\n.nf\n")
	for line := range strings.Lines(strings.Trim(s, "\n")) {
		b.WriteString(roffLine(strings.TrimRight(line, "\n")) + "\n")
	}
	b.WriteString(".fi\n")
}

// roffLine escapes a line of text: backslashes, and a leading period or
// apostrophe, which roff would read as a request.
func roffLine(s string) string {
	s = roffEscape(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = "\\&" + s
	}
	return s
}

func roffEscape(s string) string {
	return strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
}
