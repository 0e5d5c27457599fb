package generate

import (
	"bytes"
	"strings"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
	"go.yaml.in/yaml/v3"
)

// dataTxt renders /data.txt, or nil when there are no datasets.
//
// The records format is seed 001's grammar: one record for every agent
// ("User-agent: *"), an Allow line per dataset path, each after a comment
// naming the dataset, then a Disallow line per data_txt.disallow path.
// Paths are written canonically, as in robots.txt.
//
// The yaml format is the datatxt.org index that R's pins package reads: a
// YAML list of entries with path, name, title, description, type and
// license, in manifest order, empty fields left out.
func dataTxt(m *manifest.Site) ([]byte, error) {
	if len(m.Datasets) == 0 {
		return nil, nil
	}
	if m.DataTxt != nil && m.DataTxt.Format == "yaml" {
		return dataYAML(m.Datasets)
	}
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for _, d := range m.Datasets {
		if label := strings.TrimSpace(strings.Join(nonEmpty(d.Name, d.Title), ": ")); label != "" {
			b.WriteString("# " + label + "\n")
		}
		b.WriteString("Allow: " + robots.Canonical(d.Path) + "\n")
	}
	if m.DataTxt != nil {
		for _, p := range m.DataTxt.Disallow {
			b.WriteString("Disallow: " + robots.Canonical(p) + "\n")
		}
	}
	return []byte(b.String()), nil
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

type dataEntry struct {
	Path        string `yaml:"path"`
	Name        string `yaml:"name,omitempty"`
	Title       string `yaml:"title,omitempty"`
	Description string `yaml:"description,omitempty"`
	Type        string `yaml:"type,omitempty"`
	License     string `yaml:"license,omitempty"`
}

func dataYAML(ds []manifest.Dataset) ([]byte, error) {
	entries := make([]dataEntry, len(ds))
	for i, d := range ds {
		entries[i] = dataEntry{robots.Canonical(d.Path), d.Name, d.Title, d.Description, d.Type, d.License}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(entries); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
