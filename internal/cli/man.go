package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// Man renders the manual page, in roff: the main usage, then every
// command's usage and options as -h prints them. Its bytes depend only on
// the texts and the flags, not on the clock or a version, so that a
// release rebuilds the same page.
func (p *Program) Man() string {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH %s 1 \"\" \"%s\" \"User Commands\"\n", strings.ToUpper(p.Name), p.Name)
	fmt.Fprintf(&b, ".SH NAME\n%s \\- %s\n", p.Name, p.Summary)
	head, rest, _ := strings.Cut(p.Usage, "\nCommands:\n")
	_, synopsis, _ := strings.Cut(head, "Usage:\n")
	b.WriteString(".SH SYNOPSIS\n")
	roffBlock(&b, synopsis)
	commandsList, tail, _ := strings.Cut(rest, "\n\n")
	b.WriteString(".SH DESCRIPTION\n")
	roffText(&b, strings.TrimSpace(strings.SplitN(head, "\n", 2)[0]))
	roffBlock(&b, commandsList)
	b.WriteString(".SH COMMANDS\n")
	for _, c := range p.Commands {
		fmt.Fprintf(&b, ".SS \"%s %s\"\n", p.Name, c.Name)
		fs := c.FlagSet(io.Discard)
		before, after, hasOptions := strings.Cut(c.Usage, "{{options}}\n")
		roffUsage(&b, before)
		if hasOptions {
			b.WriteString(".PP\nOptions:\n")
			fs.VisitAll(func(f *pflag.Flag) {
				if f.Hidden || f.Name == "help" {
					return
				}
				b.WriteString(".TP\n")
				if f.Shorthand != "" {
					fmt.Fprintf(&b, "\\fB\\-%s\\fR, ", RoffEscape(f.Shorthand))
				}
				fmt.Fprintf(&b, "\\fB\\-\\-%s\\fR", RoffEscape(f.Name))
				if a := flagArg(f); a != "" {
					fmt.Fprintf(&b, " \\fI%s\\fR", RoffEscape(a))
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
	fmt.Fprintf(&b, ".SH SEE ALSO\n%s\n", p.SeeAlso)
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
	s = RoffEscape(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = "\\&" + s
	}
	return s
}

// RoffEscape escapes s for roff: backslashes and hyphens.
func RoffEscape(s string) string {
	return strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
}
