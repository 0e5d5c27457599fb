package autodisc

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/discgen/discgen/internal/limited"
)

// Lines yields the non-blank lines of an autodisc file with their 1-based
// line numbers, without surrounding whitespace. Seed 000 section 4 lets
// lines end with any combination of carriage returns and line feeds: CR LF
// is one line end, a lone CR or LF is one too. A UTF-8 byte order mark at
// the start is skipped.
func Lines(data []byte) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		s := strings.TrimPrefix(string(data), "\uFEFF")
		n := 1
		for len(s) > 0 {
			i := strings.IndexAny(s, "\r\n")
			line, end := s, len(s)
			if i >= 0 {
				line, end = s[:i], i+1
				if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
					end++
				}
			}
			if t := strings.TrimSpace(line); t != "" {
				if !yield(n, t) {
					return
				}
			}
			s = s[end:]
			n++
		}
	}
}

// ValidName reports whether name can be an autodisc file name: one path
// element, valid UTF-8, without whitespace, control characters, "/" or
// "\", and neither "." nor "..". A lone "-" is refused too: on a line of
// subdirectories.txt it starts an except list.
func ValidName(name string) bool {
	switch name {
	case "", ".", "..", "-":
		return false
	}
	if !utf8.ValidString(name) {
		return false
	}
	for _, r := range name {
		if r == '/' || r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// errRefused is a file the reader will not read.
type errRefused struct{ why string }

func (e *errRefused) Error() string { return e.why }

// statFile returns nil when name is a regular file (links followed) of at
// most max bytes, fs.ErrNotExist (wrapped) when there is no such file, and
// an error saying why the file is refused otherwise. Special files are
// refused before they are opened: opening a FIFO would block.
func statFile(fsys fs.FS, name string, max int64) error {
	fi, err := fs.Stat(fsys, name)
	switch {
	case err != nil:
		return err
	case fi.IsDir():
		return &errRefused{"is a directory"}
	case !fi.Mode().IsRegular():
		return &errRefused{fmt.Sprintf("is not a regular file (%v)", fi.Mode().Type())}
	case fi.Size() > max:
		return &errRefused{fmt.Sprintf("is larger than the limit of %s (%d bytes)", limited.Size(max), fi.Size())}
	}
	return nil
}

// readFile reads the regular file name if it has at most max bytes. The
// limit is enforced on the bytes read as well as on the size reported.
func readFile(fsys fs.FS, name string, max int64) ([]byte, error) {
	if err := statFile(fsys, name, max); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file may have been replaced since statFile: check what was
	// opened (limited.RootFS opens without waiting on a FIFO).
	if fi, err := f.Stat(); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, &errRefused{fmt.Sprintf("is not a regular file (%v)", fi.Mode().Type())}
	}
	data, err := limited.Read(f, max)
	var tooLarge *limited.TooLargeError
	if errors.As(err, &tooLarge) {
		return nil, &errRefused{"is " + err.Error()}
	}
	return data, err
}

// readDirNames returns the names of the entries of dir that may be autodisc
// files: not directories, not hidden (a leading "."), valid names. At most
// max entries are read; more reports true.
func readDirNames(fsys fs.FS, dir string, max int) (names []string, more bool, err error) {
	f, err := fsys.Open(dir)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	rd, ok := f.(fs.ReadDirFile)
	if !ok {
		return nil, false, &fs.PathError{Op: "readdir", Path: dir, Err: errors.ErrUnsupported}
	}
	seen := 0
	for seen < max {
		ents, err := rd.ReadDir(min(max-seen, 256))
		for _, e := range ents {
			seen++
			if e.IsDir() || strings.HasPrefix(e.Name(), ".") || !ValidName(e.Name()) {
				continue
			}
			names = append(names, e.Name())
		}
		if err == io.EOF || len(ents) == 0 {
			slices.Sort(names)
			return names, false, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
	// One more entry tells whether the directory held more than max.
	ents, _ := rd.ReadDir(1)
	slices.Sort(names)
	return names, len(ents) > 0, nil
}

// dirFiles is what one autodisc directory holds, as a consumer sees it.
type dirFiles struct {
	files   []string          // sorted
	ignored map[string]string // present or listed but not held: name -> why
	data    map[string][]byte // contents read: index.txt, subdirectories.txt
}

// readDir reads the autodisc directory dir: its index.txt, the files it
// holds, and its subdirectories.txt. When dir cannot be read, missing says
// why: "not found", "not a directory", or the error.
func (st *state) readDir(dir string) (d dirFiles, missing string) {
	d.ignored = map[string]string{}
	d.data = map[string][]byte{}
	fi, err := fs.Stat(st.fsys, dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return d, "not found"
	case err != nil:
		return d, "unreadable: " + unwrapPath(err).Error()
	case !fi.IsDir():
		return d, "not a directory"
	}

	present, more, err := readDirNames(st.fsys, dir, st.maxEntries)
	if err != nil {
		st.warnf(dir, 0, CodeRefused, "cannot list the directory: %v", unwrapPath(err))
	}
	if more {
		st.warnf(dir, 0, CodeTooMany, "more than %d entries: the rest are not read", st.maxEntries)
	}

	held := map[string]bool{}
	candidates := present
	index := dir + "/" + Index
	data, err := readFile(st.fsys, index, st.maxSize)
	switch {
	case err == nil:
		d.data[Index] = data
		held[Index] = true
		candidates = st.parseIndex(index, data)
		for _, name := range present {
			if name != Index && !slices.Contains(candidates, name) {
				d.ignored[name] = "not listed in index.txt"
				st.warnf(dir+"/"+name, 0, CodeUnlisted, "not listed in index.txt: ignored (seed 000 section 4.1)")
			}
		}
	case !errors.Is(err, fs.ErrNotExist):
		d.ignored[Index] = refusal(err)
		st.warnf(index, 0, CodeRefused, "refused: %s", refusal(err))
	}

	for _, name := range candidates {
		if name == Index {
			continue
		}
		p := dir + "/" + name
		var err error
		if name == Subdirectories {
			var data []byte
			if data, err = readFile(st.fsys, p, st.maxSize); err == nil {
				d.data[name] = data
			}
		} else {
			err = statFile(st.fsys, p, st.maxSize)
		}
		switch {
		case err == nil:
			held[name] = true
		case errors.Is(err, fs.ErrNotExist):
			if _, ok := d.data[Index]; ok {
				d.ignored[name] = "listed in index.txt but missing"
				st.warnf(index, 0, CodeMissing, "lists %s, which does not exist", name)
			}
		default:
			d.ignored[name] = refusal(err)
			st.warnf(p, 0, CodeRefused, "refused: %s", refusal(err))
		}
	}
	d.files = slices.Sorted(maps.Keys(held))
	return d, ""
}

// parseIndex returns the file names index.txt lists, in order, without
// duplicates, at most maxEntries of them.
func (st *state) parseIndex(file string, data []byte) []string {
	var names []string
	seen := map[string]bool{}
	for n, line := range Lines(data) {
		if !ValidName(line) {
			st.warnf(file, n, CodeName, "%q is not a file name: ignored", line)
			continue
		}
		if seen[line] {
			continue
		}
		if len(names) == st.maxEntries {
			st.warnf(file, n, CodeTooMany, "more than %d names: the rest are ignored", st.maxEntries)
			break
		}
		seen[line] = true
		names = append(names, line)
	}
	return names
}

// refusal says why a file was not read, without the path, which the
// warning's position gives.
func refusal(err error) string {
	var r *errRefused
	if errors.As(err, &r) {
		return r.why
	}
	return unwrapPath(err).Error()
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
