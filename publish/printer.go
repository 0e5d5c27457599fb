package publish

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/output"
)

// Printer prints each unit of a build as it ends (Run's callback, Unit):
// its diagnostics and what was written on stderr and stdout in the text
// and github formats, or one element of a JSON array on stdout, streamed,
// in the json format; End prints the summary. Refused and skipped tenants
// are named on stderr in every format. The fields are set before Begin.
type Printer struct {
	// Format is text, github or json; Mode the build's; Out the output
	// directory, for the check's line.
	Format         string
	Mode           Mode
	Out            string
	Stdout, Stderr io.Writer
	// Named is set for a --tenant build. Without it, the tenants refused
	// because they belong to other users (a build not run as root) are
	// counted and said once, at the end.
	Named bool
	// Bar, when set, stands for the built and unchanged tenants
	// (--progress bar): only what needs attention is printed, above it.
	Bar *Progress

	json    *JSONStream // in json format
	tenants bool
	// counts are the tenants' statuses; failed lists the refused and the
	// skipped tenants, for the end of a build at scale.
	counts   [4]int
	failed   [4][]string
	notOwner []string // refused: their directories are other users'
	notOpen  []string // skipped: this user may not open their directories
}

// Begin starts the output: the JSON document's array in json format.
func (p *Printer) Begin() {
	if p.Format == "json" {
		p.json = NewJSONStream(p.Stdout)
	}
}

// Unit prints one unit as it ends, or counts it under the status line.
func (p *Printer) Unit(u *Unit) {
	if u.Kind == Tenant && (u.NotOwner || u.NotOpen) && !p.Named && p.Format != "json" {
		p.tenants = true
		p.counts[u.Status]++
		if u.NotOpen {
			p.notOpen = append(p.notOpen, diag.OneLine(u.Dir))
		} else {
			p.notOwner = append(p.notOwner, diag.OneLine(u.Dir))
		}
		if p.Bar != nil {
			p.Bar.Count(u.Status)
		}
		return
	}
	if u.Kind == Tenant {
		p.tenants = true
		p.counts[u.Status]++
		if u.Status >= Refused {
			p.failed[u.Status] = append(p.failed[u.Status], diag.OneLine(u.Dir)+diag.OneLine(spaceNote(u.Space)))
		}
	}
	if p.Bar == nil {
		p.print(u)
		return
	}
	quiet := u.Kind == Tenant && u.Status <= Unchanged && len(u.Diags) == 0 &&
		len(u.Notes) == 0 && u.Problem == nil && (u.Changes == nil || u.Changes.Empty())
	if !quiet {
		p.Bar.Above(func() { p.print(u) })
	}
	if u.Kind == Tenant {
		p.Bar.Count(u.Status)
	}
}

// print prints one unit as it ended.
func (p *Printer) print(u *Unit) {
	if p.Format == "json" {
		p.jsonUnit(u)
	} else {
		u.Diags.Write(p.Stderr, p.Format)
		for _, n := range u.Notes {
			fmt.Fprintf(p.Stderr, "discgen: warning: %s\n", diag.OneLine(n))
		}
		if u.Problem != nil {
			reportProblem(p.Stderr, p.Format, u.Problem)
		}
		if p.Format == "github" && p.Mode == Check && u.Changes != nil && !u.Changes.Empty() {
			StaleDiags(u.Dir, u.Changes).WriteGitHub(p.Stderr)
		}
		p.textUnit(u)
	}
	if u.Kind == Tenant && u.Status >= Refused {
		fmt.Fprintf(p.Stderr, "discgen: error: tenant %s%s %s\n", diag.OneLine(u.Dir), diag.OneLine(spaceNote(u.Space)), u.StatusText())
	}
}

func spaceNote(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func (p *Printer) textUnit(u *Unit) {
	ch := u.Changes
	switch p.Mode {
	case Check:
		// The diff shows files a build would refuse to take over too.
		if ch != nil && (!ch.Empty() || len(ch.Problems) > 0) {
			fmt.Fprintf(p.Stdout, "== %s\n", diag.OneLine(u.Dir))
			ch.UnifiedDiff(p.Stdout)
		}
	case DryRun:
		if ch != nil {
			ch.WriteList(p.Stdout, diag.OneLine(u.Dir))
		}
	case Write:
		if p.Bar != nil && u.Kind == Tenant {
			break // the status line counts it
		}
		if u.Status == Built || (u.Kind != Tenant && u.Status == Unchanged) {
			r := u.Result
			// An adopted file was already there with the bytes discgen
			// writes (a clone without its state directory): the build
			// only recorded it, so it is counted apart from the added.
			adopted := ""
			if r.Adopted > 0 {
				adopted = fmt.Sprintf(", %d adopted", r.Adopted)
			}
			fmt.Fprintf(p.Stdout, "%s: %d added, %d updated, %d removed, %d unchanged%s\n",
				diag.OneLine(u.Dir), r.Added, r.Updated, r.Removed, r.Unchanged, adopted)
		}
	}
}

func (p *Printer) jsonUnit(u *Unit) {
	p.json.Unit(u)
	if p.Mode == Check && u.Changes != nil && !u.Changes.Empty() {
		// The diff is a result too; in json it goes to stderr, so that
		// stdout stays one document.
		fmt.Fprintf(p.Stderr, "== %s\n", u.Dir)
		u.Changes.UnifiedDiff(p.Stderr)
	}
}

// End prints what the build ends with: the tenants' counts, the tenants
// of other users in one line each, the refused and skipped ones again at
// scale, and a check's "up to date".
func (p *Printer) End(sum Summary) {
	if p.json != nil {
		p.json.End(sum)
		return
	}
	if p.Bar != nil {
		p.Bar.Finish()
	}
	if p.tenants && p.Mode == Write {
		t := p.counts
		fmt.Fprintf(p.Stdout, "tenants: %s built, %s unchanged, %s refused, %s skipped\n",
			Thousands(t[Built]), Thousands(t[Unchanged]), Thousands(t[Refused]), Thousands(t[Skipped]))
	}
	if n := len(p.notOwner); n > 0 {
		slices.Sort(p.notOwner)
		whose := "their directories belong to other users"
		if n == 1 {
			whose = "its directory belongs to another user"
		}
		fmt.Fprintf(p.Stderr, "discgen: error: %s refused: %s (%s), and a build not run as root (uid %d) writes only its own user's tenants; run the full build as root with --tenant-owner\n",
			plural(n, "tenant"), whose, listSome(p.notOwner, 3), os.Geteuid())
	}
	if n := len(p.notOpen); n > 0 {
		slices.Sort(p.notOpen)
		whose := "their directories (%s): they belong to other users"
		if n == 1 {
			whose = "its directory (%s): it belongs to another user"
		}
		fmt.Fprintf(p.Stderr, "discgen: error: %s skipped: this user (uid %d) may not open "+whose+", and a build not run as root writes only its own user's tenants; run the full build as root with --tenant-owner\n",
			plural(n, "tenant"), os.Geteuid(), listSome(p.notOpen, 3))
	}
	// At scale the refused and skipped tenants scrolled away (or sat above
	// the status line): they are named again where the build ends.
	if p.Bar != nil || p.counts[Built]+p.counts[Unchanged]+p.counts[Refused]+p.counts[Skipped] > listAgainAbove {
		for _, st := range []Status{Refused, Skipped} {
			if names := p.failed[st]; len(names) > 0 {
				fmt.Fprintf(p.Stderr, "discgen: error: %s %s: %s\n", plural(len(names), "tenant"), st, listSome(names, maxListed))
			}
		}
	}
	// A check that finds nothing to change says so.
	if p.Format == "text" && p.Mode == Check && sum.SiteOK && !sum.Stale && !sum.Failed {
		fmt.Fprintf(p.Stdout, "%s: up to date\n", diag.OneLine(p.Out))
	}
}

// listAgainAbove is the number of tenants past which the refused and
// skipped ones are listed again at the end; maxListed bounds that list.
const listAgainAbove, maxListed = 50, 20

// plural writes "1 tenant" or "2 tenants", with commas.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Thousands(n) + " " + noun + "s"
}

// listSome joins the first max names, and says how many more there are.
func listSome(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:max], ", ") + fmt.Sprintf(" and %s more", Thousands(len(names)-max))
}

// reportProblem prints why an output root cannot be written.
func reportProblem(stderr io.Writer, format string, err error) {
	var pe *output.ProblemError
	if !errors.As(err, &pe) {
		fmt.Fprintf(stderr, "discgen: error: %v\n", err)
		return
	}
	if format == "github" {
		ProblemDiags(pe).WriteGitHub(stderr)
		return
	}
	for _, p := range pe.Problems {
		fmt.Fprintf(stderr, "discgen: error: %s\n", diag.OneLine(fmt.Sprint(p)))
	}
	for _, h := range append(SiteGeneratorHints(pe), pe.Hints()...) {
		fmt.Fprintf(stderr, "discgen: hint: %s\n", h)
	}
}
