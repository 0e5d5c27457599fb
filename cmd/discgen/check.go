package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/discgen/discgen/internal/gcpolicy"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/publish"
	"github.com/discgen/discgen/robots"
)

// verdictLine is one agent and URL's answer under both readings.
type verdictLine struct {
	Verdict string `json:"verdict"`
	Agent   string `json:"agent"`
	// Token and Name are what the RFC 9309 and the 1996 readings match:
	// the leading [A-Za-z_-] run, and the name without version.
	Token   string      `json:"rfc9309_token"`
	Name    string      `json:"draft1996_name"`
	URL     string      `json:"url"`
	RFC9309 verdictJSON `json:"rfc9309"`
	Draft   verdictJSON `json:"draft1996"`
	Differs bool        `json:"readings_differ"`
	// Usage is what the agent reads there from preference lines; absent
	// where it may not fetch the URL or no preference line applies.
	Usage *usageJSON `json:"usage,omitempty"`
	// Operator is the answer under the reading the agent's operator
	// documents, where it documents one: a fallback to another token's
	// group, or a control token (Verdict is then CONTROL, and RFC9309
	// says whether use is allowed).
	Operator *operatorJSON `json:"operator_reading,omitempty"`
	// Rights is the licence and reservation at the URL (checkrights.go).
	Rights *rightsJSON `json:"rights,omitempty"`
}

type verdictJSON struct {
	Allowed bool   `json:"allowed"`
	Rule    string `json:"rule,omitempty"`
	Line    int    `json:"line,omitempty"`
}

func runCheck(args []string, stdout, stderr io.Writer) error {
	var file, env, robotsFile, format string
	var agents []string
	fs := newFlags("check", checkUsage, stdout)
	fs.StringVarP(&file, "file", "f", "", "build robots.txt from this manifest")
	fs.StringVar(&env, "env", "", "with -f: apply environments.NAME")
	fs.StringVar(&robotsFile, "robots", "", "check an existing robots.txt")
	fs.StringArrayVarP(&agents, "agent", "a", nil, "a crawler's product token; repeat for several")
	fs.StringVar(&format, "format", "text", "text (default) or json")
	setArgs(fs, "file", "FILE", "env", "NAME", "robots", "FILE", "agent", "NAME", "format", "FORMAT")
	if err := parseFlags(fs, args); err != nil {
		return helpOK(err)
	}
	switch {
	case (file == "") == (robotsFile == ""):
		return usagef("check: give exactly one of -f and --robots")
	case len(agents) == 0:
		return usagef("check: give at least one --agent")
	case fs.NArg() == 0:
		return usagef("check: give at least one URL")
	}
	if err := checkFormat(format, formats["check"]...); err != nil {
		return err
	}
	gcpolicy.OneShot()
	data, site, err := robotsBytes(file, env, robotsFile, stderr)
	if err != nil {
		return err
	}
	f := robots.Parse(data)
	var lines []verdictLine
	for _, a := range agents {
		if n := robots.CheckedName(a); n != "" {
			fmt.Fprintf(stderr, "discgen: warning: %s\n", n)
		}
		for _, u := range fs.Args() {
			r, d := f.Match(a, u), f.Match1996(a, u)
			lines = append(lines, verdictLine{
				Verdict: verdictWord(r.Allowed), Agent: a, URL: u,
				Token: robots.ProductToken(a), Name: robots.AgentName(a),
				RFC9309:  verdictJSON{r.Allowed, r.Rule, r.Line},
				Draft:    verdictJSON{d.Allowed, d.Rule, d.Line},
				Differs:  r.Allowed != d.Allowed,
				Usage:    usageAt(f, a, u, r.Allowed),
				Operator: operatorAt(f, a, u),
				Rights:   rightsAt(data, site, u),
			})
			if o := lines[len(lines)-1].Operator; o != nil && o.Control {
				lines[len(lines)-1].Verdict = "CONTROL"
			}
		}
	}
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(lines)
	}
	for _, l := range lines {
		printVerdict(stdout, l)
		printRights(stdout, l.Rights)
	}
	return nil
}

func verdictWord(allowed bool) string {
	if allowed {
		return "ALLOWED"
	}
	return "DISALLOWED"
}

func ruleText(v verdictJSON) string {
	if v.Rule == "" {
		return "(no rule matches)"
	}
	return fmt.Sprintf("(line %d: %s)", v.Line, v.Rule)
}

// robotsBytes reads the robots.txt to check: a file, or what the manifest
// builds.
func robotsBytes(file, env, robotsFile string, stderr io.Writer) ([]byte, *publish.SiteDoc, error) {
	if robotsFile != "" {
		data, err := limited.ReadFile(robotsFile, maxLintFile)
		if err != nil {
			return nil, nil, fmt.Errorf("cannot read %s: %v", robotsFile, err)
		}
		return data, nil, nil
	}
	now, err := parseNow("")
	if err != nil {
		return nil, nil, err
	}
	// Only the site's robots.txt is checked: its tenants are not built.
	site, diags := publish.LoadSite(publish.Options{Manifest: file, Env: env, Now: now, Unsigned: true})
	printDiags(stderr, "text", diags.Errors())
	if site == nil {
		return nil, nil, errFailed
	}
	e, ok := site.Tree["robots.txt"]
	if !ok {
		return nil, nil, errors.New(file + ": the manifest defines no robots.txt (no agents)")
	}
	return e.Data, site, nil
}
