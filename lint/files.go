package lint

import (
	"os"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/robots"
)

// MaxFile bounds what Read takes of a file: well past the 500 KiB a
// crawler parses, so that an oversized file is reported rather than
// refused.
const MaxFile = 32 << 20

// A Source is a file to lint: its name, its bytes and the kind it is
// linted as.
type Source struct {
	Name string
	Data []byte
	Kind Kind
}

// Read reads the files named, up to MaxFile each, and gives each kind, or
// when kind is "" the kind its name and content say (Detect; a name that
// says otherwise is warned of, Mismatch). A file that cannot be read is
// an error in the list. room, when not nil, is asked whether the host
// leaves this process the memory the work on a file needs (need bytes),
// before the file is read (robots.ReadCost of its size) and before a
// robots.txt is linted (robots.Cost); its error stops the reading.
func Read(names []string, kind Kind, room func(name string, need int64) error) ([]Source, diag.List, error) {
	if room == nil {
		room = func(string, int64) error { return nil }
	}
	var list diag.List
	var srcs []Source
	for _, name := range names {
		if fi, err := os.Stat(name); err == nil && fi.Mode().IsRegular() && fi.Size() <= MaxFile {
			if err := room(name, robots.ReadCost(fi.Size())); err != nil {
				return nil, nil, err
			}
		}
		data, err := limited.ReadFile(name, MaxFile)
		if err != nil {
			list.Errorf(diag.Pos{File: name}, "", "cannot read: %v", err)
			continue
		}
		k := kind
		if k == "" {
			k = Detect(name, data)
			if d, ok := Mismatch(name, k); ok {
				d.File = name
				list.Add(d)
			}
		}
		if k == Robots {
			if err := room(name, robots.Cost(data, robots.MaxLintLines)); err != nil {
				return nil, nil, err
			}
		}
		srcs = append(srcs, Source{name, data, k})
	}
	return srcs, list, nil
}

// Sources lints each source as its kind (File), each finding at its file.
func Sources(srcs []Source, opt Options) diag.List {
	var list diag.List
	for _, s := range srcs {
		for _, d := range File(s.Data, s.Kind, opt) {
			d.File = s.Name
			list.Add(d)
		}
	}
	return list
}
