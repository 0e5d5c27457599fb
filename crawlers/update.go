package crawlers

import (
	"fmt"
	"io"
	"strings"

	"github.com/discgen/discgen/internal/atomicfile"
	"github.com/discgen/discgen/internal/limited"
)

// An Update is a shipped catalogue refreshed from a downloaded file (a
// robots.json of the ai.robots.txt list, or an operator's ranges file):
// what it changes, and the refreshed catalogue's bytes, for a maintainer
// to write over the one in the source tree. Both are read from the file
// alone: nothing is fetched.
type Update struct {
	diff interface{ Write(io.Writer) error }
	data []byte
}

// WriteDiff writes what the update changes: the agents or prefixes added
// and removed.
func (u *Update) WriteDiff(w io.Writer) error { return u.diff.Write(w) }

// Save writes the refreshed catalogue to file, whole or not at all.
func (u *Update) Save(file string) error { return atomicfile.Write(file, u.data) }

// UpdateCatalogue reads file, a robots.json of the ai.robots.txt list at
// src (its commit and date), and refreshes the shipped catalogue from it
// (Import). Errors name the file.
func UpdateCatalogue(file string, src Source) (*Update, error) {
	data, err := limited.ReadFile(file, MaxListSize)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", file, err)
	}
	list, err := ParseList(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	next, diff, err := Import(Default(), list, src)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return &Update{diff, Format(next)}, nil
}

// UpdateRanges reads file, a ranges file downloaded on the day read from
// copy (where it was downloaded), and refreshes the list key of the
// shipped range catalogue from it (ImportRanges). A file that attributes
// its prefixes to several services gives only service's (none chosen: an
// error naming them). Errors name the file.
func UpdateRanges(key, file, service, read, copy string) (*Update, error) {
	data, err := limited.ReadFile(file, MaxRangesSize)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", file, err)
	}
	rl, err := ParseRanges(data)
	if err != nil {
		return nil, fmt.Errorf("%s:%v", file, err) // ParseRanges' errors start with a line
	}
	if names := rl.ServiceNames(); service == "" && len(names) > 1 {
		return nil, fmt.Errorf("%s: its prefixes are of several services (%s): name the one list %s is for with --service", file, strings.Join(names, ", "), key)
	}
	if service != "" {
		if rl, err = rl.Only(service); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
	}
	next, diff, err := ImportRanges(DefaultRanges(), key, rl, read, copy)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return &Update{diff, FormatRanges(next)}, nil
}
