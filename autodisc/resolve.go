package autodisc

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/pathspace"
)

// The files with a role in reading a directory.
const (
	Index          = "index.txt"
	Subdirectories = pathspace.Subdirectories
)

// Limits a [Reader] applies unless told otherwise.
const (
	DefaultMaxFileSize = 1 << 20 // bytes of one autodisc file
	DefaultMaxDepth    = 32      // delegations followed below the root
	DefaultMaxEntries  = 4096    // names taken from one directory or index.txt
	MaxWarnings        = 100     // warnings listed; more are counted
)

// Warning codes, stable for machine consumers.
const (
	CodeDelegation = "delegation"    // a subdirectories.txt path refused: the line is ignored
	CodeName       = "file-name"     // a name in a list or in index.txt is not a file name
	CodeGrant      = "grant"         // a grant names a file its delegator does not hold, or excepts subdirectories.txt
	CodeOverlap    = "overlap"       // the delegation followed intersects another of the same file
	CodeUnlisted   = "unlisted"      // a file index.txt does not list: ignored
	CodeMissing    = "missing"       // index.txt lists a file that does not exist
	CodeRefused    = "refused"       // a file too large, not regular, or unreadable
	CodeIgnored    = "not-delegated" // a delegatee's file it has no authority for: ignored
	CodeNoDir      = "no-directory"  // the delegatee has no autodisc directory: its files are undefined
	CodeDepth      = "depth"         // the depth limit stopped the reader
	CodeTooMany    = "too-many"      // a directory, an index.txt or the warnings ran over a limit
)

// ErrNoAutodisc is returned by [Reader.Resolve] when the file system has no
// autodisc directory at its root.
var ErrNoAutodisc = errors.New("no autodisc directory at the root")

// Reader reads the autodisc directories of a site. The zero limits mean
// the defaults.
type Reader struct {
	FS          fs.FS // the site as served: "autodisc/index.txt" is /autodisc/index.txt
	MaxFileSize int64
	MaxDepth    int
	MaxEntries  int
}

// Result is the answer for one URL path.
type Result struct {
	Path  string  // the URL path asked about
	Chain []Level // from the root down to the deepest authority whose space holds Path
	Files []File  // sorted by name
	// Warnings are about the files read, positioned by paths relative to
	// the file system's root, in the order they were found.
	Warnings diag.List
}

// Level is one authority of a [Result.Chain].
type Level struct {
	Space pathspace.Space // "/" for the root; a literal space for a delegatee
	Dir   string          // its autodisc directory in the file system; "" when none can be named
	// Read reports whether Dir was read. When false, Note says why, and
	// the files delegated to this level are undefined.
	Read bool
	Note string
	// The delegation that leads here, on line Line of the delegator's
	// subdirectories.txt; zero for the root.
	Delegation pathspace.Space
	Line       int
	Grant      pathspace.Grant
	Granted    pathspace.Names   // the files this level has authority for
	Files      []string          // the files Dir holds, sorted
	Ignored    map[string]string // files present or listed that Dir does not hold: name -> why
}

// File is where one autodisc file's value comes from.
type File struct {
	Name string
	// Level indexes the Chain level that governs the file, or is -1 when
	// none does: an only list on the way left it out.
	Level int
	// Defined reports whether the governing level's directory holds the
	// file: its value applies at the path.
	Defined bool
	// Reason explains a file that is undefined or that comes from a level
	// above the deepest; "" otherwise.
	Reason string
}

// Resolve is [Reader.Resolve] with the default limits.
func Resolve(fsys fs.FS, path string) (*Result, error) {
	return (&Reader{FS: fsys}).Resolve(path)
}

// Resolve reads the chain of authorities for the URL path p and where each
// autodisc file's value comes from there. It fails only when p does not
// begin with "/", when there is no autodisc directory at the root
// ([ErrNoAutodisc]) or when that directory cannot be read; everything wrong
// further down is a warning in the [Result].
func (r *Reader) Resolve(p string) (*Result, error) {
	canon, ok := pathspace.CanonicalPath(p)
	if !ok {
		return nil, fmt.Errorf("%q is not a URL path: it must begin with \"/\"", p)
	}
	st := &state{
		fsys:       r.FS,
		maxSize:    cmpOr(r.MaxFileSize, DefaultMaxFileSize),
		maxDepth:   cmpOr(r.MaxDepth, DefaultMaxDepth),
		maxEntries: cmpOr(r.MaxEntries, DefaultMaxEntries),
	}
	res := &Result{Path: p}

	d, missing := st.readDir("autodisc")
	switch missing {
	case "":
	case "not found", "not a directory":
		return nil, ErrNoAutodisc
	default:
		return nil, fmt.Errorf("autodisc: %s", missing)
	}
	root := &pathspace.Authority{Space: pathspace.Root(), Files: d.files}
	res.Chain = append(res.Chain, Level{Space: pathspace.Root(), Dir: "autodisc", Read: true,
		Granted: pathspace.AllNames(), Files: d.files, Ignored: d.ignored})
	auth, data := root, d.data
	for auth != nil {
		cur := &res.Chain[len(res.Chain)-1]
		file := cur.Dir + "/" + Subdirectories
		ds := st.delegations(file, cur.Space, cur.Granted, data[Subdirectories])
		var next *Delegation
		var nextDel *pathspace.Delegation
		for i := range ds {
			del := &pathspace.Delegation{Space: ds[i].Space, Grant: ds[i].Grant}
			auth.Delegations = append(auth.Delegations, del)
			if next == nil && ds[i].Space.Contains(p) {
				next, nextDel = &ds[i], del
			}
		}
		if next == nil {
			break
		}
		st.overlaps(file, ds, next)
		lv := Level{Space: next.Space, Delegation: next.Space, Line: next.Line, Grant: next.Grant,
			Granted: pathspace.Granted(cur.Granted, next.Grant)}
		from := "delegation " + next.Space.String()
		var child *pathspace.Authority
		inst, dir, why := instance(next.Space, canon)
		switch {
		case why != "":
			lv.Note = why
			st.warnf(file, next.Line, CodeNoDir, "%s: %s: the files delegated are undefined at %s", from, why, p)
		case len(res.Chain) > st.maxDepth:
			lv.Space, lv.Dir = inst, dir
			lv.Note = fmt.Sprintf("not read: more than %d levels of delegation", st.maxDepth)
			st.warnf(file, next.Line, CodeDepth, "%s not followed: more than %d levels of delegation; the files delegated are undefined", from, st.maxDepth)
		default:
			lv.Space, lv.Dir = inst, dir
			if d, missing = st.readDir(dir); missing == "" {
				lv.Read, lv.Files, lv.Ignored, data = true, d.files, d.ignored, d.data
				child = &pathspace.Authority{Space: inst, Files: d.files}
				nextDel.Delegatees = []*pathspace.Authority{child}
			} else {
				lv.Note = missing
				st.warnf(file, next.Line, CodeNoDir, "%s: the autodisc directory of %s is %s: the files delegated to it are undefined", from, inst, missing)
			}
		}
		res.Chain = append(res.Chain, lv)
		auth = child
	}

	rs := pathspace.Resolve(root, p)
	if len(rs.Chain) != len(res.Chain) {
		// The walk above follows the first delegation holding p, as
		// pathspace.Resolve does; a difference is a bug here.
		panic(fmt.Sprintf("autodisc: chain of %d levels, pathspace.Resolve found %d", len(res.Chain), len(rs.Chain)))
	}
	names := map[string]bool{}
	for n := range rs.Files {
		names[n] = true
	}
	for _, lv := range res.Chain {
		for n := range lv.Ignored {
			names[n] = true
		}
	}
	delete(names, Index)
	for _, n := range slices.Sorted(maps.Keys(names)) {
		src := rs.Source(n)
		res.Files = append(res.Files, File{Name: n, Level: src.Step, Defined: src.Defined, Reason: reason(res.Chain, n, src)})
	}
	st.ignoredFiles(res.Chain)
	res.Warnings = st.finish()
	return res, nil
}

// delegations parses a subdirectories.txt and reports its problems and the
// grants its writer cannot make.
func (st *state) delegations(file string, base pathspace.Space, held pathspace.Names, data []byte) []Delegation {
	if data == nil {
		return nil
	}
	ds, probs := ParseSubdirectories(base, data)
	for _, pr := range probs {
		st.warnf(file, pr.Line, pr.Code, "%s", pr.Message)
	}
	for _, d := range ds {
		for _, err := range pathspace.CheckGrant(held, d.Grant) {
			st.warnf(file, d.Line, CodeGrant, "%s: %v", d.Space, err)
		}
	}
	return ds
}

// overlaps warns of the delegations of ds whose spaces intersect the one
// followed: seed 000 section 4.2 leaves their meaning undefined.
func (st *state) overlaps(file string, ds []Delegation, next *Delegation) {
	for _, d := range ds {
		if d.Line != next.Line && pathspace.Overlap(d.Space, next.Space) {
			st.warnf(file, d.Line, CodeOverlap, "%s overlaps %s (line %d), which is followed as the first in the file: delegations must not intersect (seed 000 section 4.2)",
				d.Space, next.Space, next.Line)
		}
	}
}

// ignoredFiles warns of files a delegatee holds that it has no authority
// for (seed 000 section 4.2: they must be ignored).
func (st *state) ignoredFiles(chain []Level) {
	for i, lv := range chain {
		if i == 0 || !lv.Read {
			continue
		}
		for _, n := range lv.Files {
			if n != Index && !lv.Granted.Has(n) {
				st.warnf(lv.Dir+"/"+n, 0, CodeIgnored, "ignored: not delegated to %s, which has authority for %s%s", lv.Space, lv.Granted, grantText(chain[i-1].Space, lv.Grant))
			}
		}
	}
}

// grantText names the list a delegation's files were handed over by.
func grantText(delegator pathspace.Space, g pathspace.Grant) string {
	switch {
	case g.Only != nil:
		return fmt.Sprintf(" (only-list of %s)", delegator)
	case len(g.Except) > 0:
		return fmt.Sprintf(" (except-list of %s)", delegator)
	}
	return ""
}

// reason explains the source of name, as [File.Reason].
func reason(chain []Level, name string, src pathspace.Source) string {
	deepest := len(chain) - 1
	if src.Step < 0 {
		for i := deepest; i > 0; i-- {
			if g := chain[i].Grant; g.Only != nil && !slices.Contains(g.Only, name) && !chain[i].Granted.Has(name) {
				return fmt.Sprintf("not delegated: only-list of %s", chain[i-1].Space)
			}
		}
		return "not delegated"
	}
	lv := chain[src.Step]
	var why []string
	if src.Step < deepest {
		// The level below did not get the file although lv held it: its
		// grant excepted it.
		why = append(why, fmt.Sprintf("excepted by %s", lv.Space))
	}
	if !src.Defined {
		switch {
		case !lv.Read:
			why = append(why, fmt.Sprintf("%s is not read: %s", lv.Space, lv.Note))
		case lv.Ignored[name] != "":
			why = append(why, fmt.Sprintf("%s's %s is ignored: %s", lv.Space, name, lv.Ignored[name]))
		default:
			why = append(why, fmt.Sprintf("%s has no %s", lv.Space, name)+notInherited(chain, src.Step, name))
		}
	}
	return strings.Join(why, "; ")
}

// notInherited names the reading taken where seed 000 contradicts itself:
// a file delegated through an except-list that the delegatee lacks, while a
// delegator above holds one. Section 4.2's except paragraph says the files
// not excepted "are inherited from the delegating directory"; its general
// rule says a delegated file the delegatee lacks "is not defined". discgen
// takes the general rule, the one that matches what the delegatee was given
// authority for (see docs/choices.md).
func notInherited(chain []Level, step int, name string) string {
	// subdirectories.txt is always delegated and names paths relative to
	// its own authority: inheriting one would make no sense.
	if step == 0 || len(chain[step].Grant.Except) == 0 || name == Subdirectories {
		return ""
	}
	for i := step - 1; i >= 0; i-- {
		if chain[i].Read && slices.Contains(chain[i].Files, name) {
			return fmt.Sprintf("; not inherited from %s: a delegated file the delegatee lacks is undefined (seed 000 section 4.2), read over the except paragraph's \"inherited\"", chain[i].Space)
		}
	}
	return ""
}

// instance returns the literal space of the delegatee of the delegation
// space d that holds the canonical URL path canon, and its autodisc
// directory, or why there is none.
func instance(d pathspace.Space, canon string) (pathspace.Space, string, string) {
	segs := strings.Split(canon[1:], "/")[:d.Depth()]
	prefix := "/" + strings.Join(segs, "/") + "/"
	inst, err := pathspace.Parse(pathspace.Root(), prefix)
	if err != nil {
		return d, "", fmt.Sprintf("the path's %s cannot name a delegatee: %v", prefix, err)
	}
	dirs := make([]string, len(segs))
	for i, seg := range segs {
		dec, err := url.PathUnescape(seg)
		if err != nil || !dirName(dec) {
			return d, "", fmt.Sprintf("the segment %q cannot name a directory", seg)
		}
		dirs[i] = dec
	}
	dir := strings.Join(dirs, "/") + "/autodisc"
	if !fs.ValidPath(dir) {
		return d, "", fmt.Sprintf("%q cannot name a directory", dir)
	}
	return inst, dir, ""
}

// dirName reports whether a decoded segment can name one directory. Empty,
// dot and non-UTF-8 names are left to fs.ValidPath; [pathspace.Parse] has
// refused encoded slashes, backslashes and C0 controls already, but the
// decoded form is what names the directory, so it is checked whole.
func dirName(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool {
		return r == '/' || r == '\\' || unicode.IsControl(r)
	})
}

// state is one Resolve's reading.
type state struct {
	fsys       fs.FS
	maxSize    int64
	maxDepth   int
	maxEntries int
	warnings   diag.List
	dropped    int
}

func (st *state) warnf(file string, line int, code, format string, args ...any) {
	if len(st.warnings) == MaxWarnings {
		st.dropped++
		return
	}
	col := 0
	if line > 0 {
		col = 1
	}
	st.warnings.Add(diag.Diagnostic{Pos: diag.Pos{File: file, Line: line, Col: col}, Severity: diag.Warning, Code: code, Message: fmt.Sprintf(format, args...)})
}

func (st *state) finish() diag.List {
	if st.dropped > 0 {
		st.warnings.Add(diag.Diagnostic{Severity: diag.Warning, Code: CodeTooMany, Message: fmt.Sprintf("%d more warnings not listed", st.dropped)})
	}
	return st.warnings
}

func cmpOr[T int | int64](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}
