package crawlers

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"
)

// WritePresets lists the presets named (each one the catalogue holds) as
// discgen presets prints them: the catalogue's date and sources, then
// each preset's agents with their operator, source and the day they were
// checked.
func (c *Catalogue) WritePresets(w io.Writer, names []string) error {
	fmt.Fprintf(w, "crawler catalogue of %s\n", c.Date)
	for _, name := range slices.Sorted(maps.Keys(c.Sources)) {
		s := c.Sources[name]
		fmt.Fprintf(w, "source %s: %s %s, commit %s of %s, %s licence\n", name, s.URL, s.File, s.Commit, s.Date, s.Licence)
	}
	for _, p := range names {
		as, _ := c.Preset(p)
		fmt.Fprintf(w, "\n%s (%d agents): %s\n", p, len(as), c.Purposes[p])
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, a := range as {
			checked := "not checked"
			if a.Checked != "" {
				checked = "checked " + a.Checked
			}
			fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\n", a.Name, a.Operator, a.Source, checked)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// WritePresetsJSON writes the presets named as one JSON document: the
// catalogue's date and sources, and each preset with its description and
// agents.
func (c *Catalogue) WritePresetsJSON(w io.Writer, names []string) error {
	type preset struct {
		Name        string  `json:"name"`
		Description string  `json:"description"`
		Agents      []Agent `json:"agents"`
	}
	out := struct {
		Date    string            `json:"date"`
		Sources map[string]Source `json:"sources"`
		Presets []preset          `json:"presets"`
	}{Date: c.Date, Sources: c.Sources}
	for _, p := range names {
		as, _ := c.Preset(p)
		out.Presets = append(out.Presets, preset{p, c.Purposes[p], as})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
