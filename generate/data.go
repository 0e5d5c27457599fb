package generate

import (
	"bytes"
	"net/url"
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
// data_txt.disallow path. Paths are written canonically, as in robots.txt.
//
// Seed 001 readers take the first rule that matches, RFC 9309 readers the
// longest. Both matching rules are prefixes of the URL path, so they only
// disagree when a Disallow path extends an Allow path (Allow: /data/stats,
// Disallow: /data/stats/drafts/): such a Disallow line is written before
// every Allow line; the other Disallow lines follow the Allow lines, where
// the first match is also the longest or an equal-length Allow.
func dataRecords(ds []manifest.Dataset, disallow []string) []byte {
	allow := make([]string, len(ds))
	for i, d := range ds {
		allow[i] = robots.Canonical(d.Path)
	}
	var early, late []string
	for _, p := range disallow {
		p = robots.Canonical(p)
		extends := false
		for _, a := range allow {
			if len(p) > len(a) && strings.HasPrefix(p, a) {
				extends = true
				break
			}
		}
		if extends {
			early = append(early, p)
		} else {
			late = append(late, p)
		}
	}
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for _, p := range early {
		b.WriteString("Disallow: " + p + "\n")
	}
	for i, d := range ds {
		if label := strings.Join(nonEmpty(d.Name, d.Title), ": "); label != "" {
			b.WriteString("# " + label + "\n")
		}
		b.WriteString("Allow: " + allow[i] + "\n")
	}
	for _, p := range late {
		b.WriteString("Disallow: " + p + "\n")
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
//   - type: the pin type ("files", "table", ...), which pin_get dispatches
//     on to load the download; without it pins uses "files" and returns the
//     downloaded file, the right reading of a data file. A dataset's media
//     type (text/csv) there would make pin_get look for an R object that is
//     not there, so it is written as media_type instead, and type is left
//     out.
//
// Other keys (title, license, media_type) are carried along as metadata.
// Entries keep manifest order; empty fields are left out.
type dataEntry struct {
	Path        string `yaml:"path"`
	Name        string `yaml:"name,omitempty"`
	Title       string `yaml:"title,omitempty"`
	Description string `yaml:"description,omitempty"`
	MediaType   string `yaml:"media_type,omitempty"`
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
