package securitytxt

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"strings"
	"sync"
)

// ianaFields is a dated copy of IANA's "security.txt Fields" registry
// (iana-fields.csv: its source and date in its opening comment).
//
//go:embed iana-fields.csv
var ianaFields []byte

// RegistryField is one field of the registry.
type RegistryField struct {
	Name, Description string
	Multiple          bool // the registry's "Multiple Appearances"
	Status            string
	Controller        string
	Reference         string
	Registered        string // the day the field was registered (YYYY-MM-DD)
}

// FieldRegistry is the copy of the registry discgen ships.
type FieldRegistry struct {
	Source  string // where the registry is published
	Updated string // the registry's last update the copy holds (YYYY-MM-DD)
	Fields  []RegistryField
}

// Field returns the field named name (in any case).
func (r *FieldRegistry) Field(name string) (RegistryField, bool) {
	for _, f := range r.Fields {
		if strings.EqualFold(f.Name, name) {
			return f, true
		}
	}
	return RegistryField{}, false
}

// Registry returns the shipped copy of the registry, read the first time
// it is asked for.
func Registry() *FieldRegistry { return shippedRegistry() }

var shippedRegistry = sync.OnceValue(func() *FieldRegistry {
	r, err := parseRegistry(ianaFields)
	if err != nil {
		panic("securitytxt: the shipped security.txt fields registry is invalid: " + err.Error())
	}
	return r
})

// parseRegistry reads the copy: "# source: URL" and "# updated: DAY"
// comment lines, other comments, then IANA's CSV columns and the
// registration day.
func parseRegistry(data []byte) (*FieldRegistry, error) {
	r := &FieldRegistry{}
	var body bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if c, ok := strings.CutPrefix(line, "#"); ok {
			c = strings.TrimSpace(c)
			if v, ok := strings.CutPrefix(c, "source: "); ok {
				r.Source = v
			}
			if v, ok := strings.CutPrefix(c, "updated: "); ok {
				r.Updated = v
			}
			continue
		}
		body.WriteString(line + "\n")
	}
	rows, err := csv.NewReader(&body).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) < 2 || r.Source == "" || r.Updated == "" {
		return nil, fmt.Errorf("no source, date or fields")
	}
	for _, row := range rows[1:] {
		if len(row) != 7 || (row[2] != "yes" && row[2] != "no") {
			return nil, fmt.Errorf("bad row %q", row)
		}
		r.Fields = append(r.Fields, RegistryField{Name: row[0], Description: row[1], Multiple: row[2] == "yes",
			Status: row[3], Controller: row[4], Reference: row[5], Registered: row[6]})
	}
	return r, nil
}

// fieldKey is the snake_case name findings of a field are reported under:
// Preferred-Languages is preferred_languages.
func fieldKey(name string) string {
	return strings.ReplaceAll(strings.ToLower(name), "-", "_")
}
