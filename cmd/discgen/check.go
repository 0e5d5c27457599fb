package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/discgen/discgen/internal/cli"
	"github.com/discgen/discgen/lint"
	"github.com/spf13/pflag"

	"github.com/discgen/discgen/internal/gcpolicy"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/publish"
	"github.com/discgen/discgen/rights"
	"github.com/discgen/discgen/robots"
)

// checkLine is one line of check: the answer under both readings, and the
// licence and reservation at the URL.
type checkLine struct {
	robots.CheckLine
	rights rights.RightsReading
}

// MarshalJSON writes the answer's members and, where something says a
// licence or a reservation, "rights".
func (l checkLine) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		robots.CheckLine
		Rights *rights.JSON `json:"rights,omitempty"`
	}{l.CheckLine, l.rights.JSON()})
}

func checkCommand(fs *pflag.FlagSet) runner {
	var file, env, robotsFile, tdmFile, format string
	var agents []string
	fs.StringVarP(&file, "file", "f", "", "build robots.txt from this manifest")
	fs.StringVar(&env, "env", "", "with -f: apply environments.NAME")
	fs.StringVar(&robotsFile, "robots", "", "check an existing robots.txt")
	fs.StringVar(&tdmFile, "tdmrep", "", "check an existing tdmrep.json (with --robots)")
	fs.StringArrayVarP(&agents, "agent", "a", nil, "a crawler's product token; repeat for several")
	fs.StringVar(&format, "format", "text", "text (default) or json")
	cli.SetArgs(fs, "file", "FILE", "env", "NAME", "robots", "FILE", "tdmrep", "FILE", "agent", "NAME", "format", "FORMAT")
	return func(e *call, fs *pflag.FlagSet) error {
		stdout, stderr := e.stdout, e.stderr
		switch {
		case (file == "") == (robotsFile == ""):
			return usagef("check: give exactly one of -f and --robots")
		case tdmFile != "" && robotsFile == "":
			return usagef("check: --tdmrep goes with --robots (with -f, the manifest builds tdmrep.json)")
		case len(agents) == 0:
			return usagef("check: give at least one --agent")
		case fs.NArg() == 0:
			return usagef("check: give at least one URL")
		}
		if err := checkFormat(format, formats["check"]...); err != nil {
			return err
		}
		gcpolicy.OneShot()
		data, site, err := robotsBytes(e, file, env, robotsFile)
		if err != nil {
			return err
		}
		tdm, err := tdmrepBytes(tdmFile, stderr)
		if err != nil {
			return err
		}
		if robotsFile != "" {
			if err := e.roomFor(robots.Cost(data, robots.MaxLines), "check of "+robotsFile); err != nil {
				return err
			}
		}
		f := robots.Parse(data)
		if f.Cut > 0 {
			// A file discgen builds never holds so many lines.
			return fmt.Errorf("%s:%d: more than %d lines that hold a field or text; check reads at most %d", robotsFile, f.Cut, robots.MaxLines, robots.MaxLines)
		}
		// The licence and reservation depend on the URL alone: read once each.
		rd := rights.NewReader(data, tdm, nil)
		if site != nil {
			rd = site.Rights()
		}
		atURL := make([]rights.RightsReading, fs.NArg())
		for i, u := range fs.Args() {
			atURL[i] = rd.At(robots.PathOf(u))
		}
		var lines []checkLine
		for _, a := range agents {
			if n := robots.CheckedName(a); n != "" {
				fmt.Fprintf(stderr, "discgen: warning: %s\n", n)
			}
			for i, u := range fs.Args() {
				lines = append(lines, checkLine{f.CheckLine(a, u), atURL[i]})
			}
		}
		if format == "json" {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(lines)
		}
		for _, l := range lines {
			l.CheckLine.WriteText(stdout)
			if t := l.rights.LicenseText(); t != "" {
				fmt.Fprintf(stdout, "  license %s\n", t)
			}
			if t := l.rights.TDMText(); t != "" {
				fmt.Fprintf(stdout, "  tdm %s\n", t)
			}
		}
		return nil
	}
}

// robotsBytes reads the robots.txt to check: a file, or what the manifest
// builds.
func robotsBytes(e *call, file, env, robotsFile string) ([]byte, *publish.SiteDoc, error) {
	if robotsFile != "" {
		if err := e.roomToRead(robotsFile, lint.MaxFile, "check of "+robotsFile); err != nil {
			return nil, nil, err
		}
		data, err := limited.ReadFile(robotsFile, lint.MaxFile)
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
	diags.Errors().WriteText(e.stderr)
	if site == nil {
		return nil, nil, errFailed
	}
	robots, ok := site.Tree["robots.txt"]
	if !ok {
		return nil, nil, errors.New(file + ": the manifest defines no robots.txt (no agents)")
	}
	return robots.Data, site, nil
}
