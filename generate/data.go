package generate

import (
	"bytes"
	"cmp"
	"net/url"
	"slices"
	"strings"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
	"go.yaml.in/yaml/v3"
)

// dataTxt renders /data.txt, or nil when there are no datasets.
func dataTxt(m *manifest.Site, site *url.URL) ([]byte, error) {
	if len(m.Datasets) == 0 {
		return nil, nil
	}
	if m.DataTxt != nil && m.DataTxt.Format == "yaml" {
		return dataYAML(m.Datasets, site)
	}
	var disallow []string
	if m.DataTxt != nil {
		disallow = m.DataTxt.Disallow
	}
	return dataRecords(m.Datasets, disallow), nil
}

// dataRecords renders the records format, the grammar of seed 001 section
// 3.3: a single record for every agent, "User-agent: *", then its rule
// lines, an Allow line per dataset path (after a comment line naming the
// dataset when it has a name or title) and a Disallow line per
// data_txt.disallow path. Paths are written canonically, as in robots.txt,
// so rule lines are US-ASCII as the grammar asks; a comment keeps the name
// and title as written, in UTF-8, as RFC 9309 allows.
//
// Seed 001 readers take the first rule that matches, RFC 9309 readers the
// longest, Allow winning a tie. The rules are written longest first, Allow
// before Disallow at equal length, datasets and disallowed paths in
// manifest order otherwise: then the first match is the longest, and both
// readings agree (Allow: /data/stats and Disallow: /data/stats/drafts/
// keep the drafts out for both).
func dataRecords(ds []manifest.Dataset, disallow []string) []byte {
	type rule struct {
		allow   bool
		path    string
		comment string
	}
	var rules []rule
	for _, d := range ds {
		rules = append(rules, rule{true, robots.Canonical(d.Path), strings.Join(nonEmpty(d.Name, d.Title), ": ")})
	}
	for _, p := range disallow {
		rules = append(rules, rule{false, robots.Canonical(p), ""})
	}
	slices.SortStableFunc(rules, func(a, b rule) int {
		if c := cmp.Compare(len(b.path), len(a.path)); c != 0 {
			return c
		}
		switch {
		case a.allow && !b.allow:
			return -1
		case b.allow && !a.allow:
			return 1
		}
		return 0
	})
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for _, r := range rules {
		switch {
		case !r.allow:
			b.WriteString("Disallow: " + r.path + "\n")
			continue
		case r.comment != "":
			b.WriteString("# " + r.comment + "\n")
		}
		b.WriteString("Allow: " + r.path + "\n")
	}
	return []byte(b.String())
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

// dataEntry is one entry of the yaml format: the datatxt.org index, read
// by the datatxt board of R's pins package (pins::board_register_datatxt,
// legacy_datatxt). That reader loads data.txt with yaml::read_yaml as a
// list of maps and uses these keys:
//
//   - path: where the data is. pins joins a relative path to the board URL
//     with file.path, which turns "/data/x.csv" into "https://site//data/x.csv",
//     and takes an http(s) URL as it is; so path is the dataset's absolute
//     URL, resolved against site.url.
//   - name: the pin name (pins falls back to the base name of path).
//   - description: shown by pin_find.
//   - type: the dataset's media type (text/csv), as the manifest gives it.
//     The index's field list is fixed by the design (path, name, title,
//     description, type, license). pins itself reads type as its own pin
//     type ("files", "table") and dispatches pin_get on it, so a pins user
//     who needs pin_get to load the download leaves type out of the
//     manifest's dataset; pin_find and the other keys work either way.
//
// Other keys (title, license) are carried along as metadata.
// Entries keep manifest order; empty fields are left out.
type dataEntry struct {
	Path        string `yaml:"path"`
	Name        string `yaml:"name,omitempty"`
	Title       string `yaml:"title,omitempty"`
	Description string `yaml:"description,omitempty"`
	Type        string `yaml:"type,omitempty"`
	License     string `yaml:"license,omitempty"`
}

// dataYAML renders the yaml format with go.yaml.in/yaml/v3: block style,
// two-space indent, no line folding, plain scalars where they read back as
// the same string, quotes otherwise, including for the YAML 1.1 booleans
// (yes, no, on, off, y, n) that R's yaml package would read as logicals.
func dataYAML(ds []manifest.Dataset, site *url.URL) ([]byte, error) {
	entries := make([]dataEntry, len(ds))
	for i, d := range ds {
		entries[i] = dataEntry{resolveURI(site, d.Path), d.Name, d.Title, d.Description, d.Type, d.License}
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
