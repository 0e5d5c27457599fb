package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/internal/editdist"
)

func runPresets(args []string, stdout, stderr io.Writer) error {
	var format, nowFlag string
	fs := newFlags("presets", presetsUsage, stdout)
	fs.StringVar(&format, "format", "text", "")
	fs.StringVar(&nowFlag, "now", "", "")
	if err := parseFlags(fs, args); err != nil {
		return helpOK(err)
	}
	if err := checkFormat(format, "text", "json"); err != nil {
		return err
	}
	now, err := parseNow(nowFlag)
	if err != nil {
		return err
	}
	cat := crawlers.Default()
	want := fs.Args()
	if len(want) == 0 {
		want = cat.Presets()
	}
	for _, p := range want {
		if _, ok := cat.Preset(p); !ok {
			ue := &usageError{msg: fmt.Sprintf("presets: unknown preset %q", p)}
			if s := editdist.Closest(p, cat.Presets()); s != "" {
				ue.hint = fmt.Sprintf("did you mean %s?", s)
			}
			return ue
		}
	}
	if s := cat.Stale(now); s != "" {
		fmt.Fprintf(stderr, "discgen: warning: %s\n", s)
	}
	if format == "json" {
		type preset struct {
			Name        string           `json:"name"`
			Description string           `json:"description"`
			Agents      []crawlers.Agent `json:"agents"`
		}
		out := struct {
			Date    string                     `json:"date"`
			Sources map[string]crawlers.Source `json:"sources"`
			Presets []preset                   `json:"presets"`
		}{Date: cat.Date, Sources: cat.Sources}
		for _, p := range want {
			as, _ := cat.Preset(p)
			out.Presets = append(out.Presets, preset{p, cat.Purposes[p], as})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	fmt.Fprintf(stdout, "crawler catalogue of %s\n", cat.Date)
	for _, name := range slices.Sorted(maps.Keys(cat.Sources)) {
		s := cat.Sources[name]
		fmt.Fprintf(stdout, "source %s: %s %s, commit %s of %s, %s licence\n", name, s.URL, s.File, s.Commit, s.Date, s.Licence)
	}
	for _, p := range want {
		as, _ := cat.Preset(p)
		fmt.Fprintf(stdout, "\n%s (%d agents): %s\n", p, len(as), cat.Purposes[p])
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		for _, a := range as {
			fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\n", a.Name, a.Operator, a.Source, checked(a))
		}
		tw.Flush()
	}
	return nil
}

// checked says when an agent's facts were checked against its source.
func checked(a crawlers.Agent) string {
	if a.Checked == "" {
		return "not checked"
	}
	return "checked " + a.Checked
}
