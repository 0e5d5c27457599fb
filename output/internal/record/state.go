package record

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
)

// Bounds are what a caller lets the read of one record or stat cache
// take: MaxPaths lines (0: unbounded), and Reserve, when set, called
// before a read larger than SmallState with the memory parsing it takes
// (output's Options.MaxPaths and Options.Reserve).
type Bounds struct {
	MaxPaths int
	Reserve  func(n int64) (release func())
}

// ReadState reads the record or stat cache file (an OS path) from the
// state directory dir, within b: no more than MaxPaths × MaxPathBytes
// bytes when MaxPaths is set, and, past SmallState bytes, only once
// Reserve, when set, has given room for what parsing it will take. The
// caller calls release once it has parsed data.
func ReadState(dir, file string, limit int64, b Bounds) (data []byte, st confined.Info, release func(), err error) {
	release = func() {}
	limit = StateLimit(dir, limit)
	if n := int64(b.MaxPaths); n > 0 {
		limit = min(limit, n*MaxPathBytes+4096)
	}
	if b.MaxPaths <= 0 && b.Reserve == nil {
		data, st, err = statedir.ReadFile(file, limit)
		return data, st, release, err
	}
	// Nearly every record and stat cache is small: read at no more cost
	// than that of the read (a build's every unchanged tenant reads its
	// stat cache), and reserved for with the worker's share.
	data, st, err = statedir.ReadFile(file, min(limit, SmallState))
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return data, st, release, err
	}
	// Larger (or not a regular file, which the read below refuses
	// again).
	fi, err := statedir.Lstat(file)
	switch {
	case err != nil:
		return nil, confined.Info{}, release, err
	case fi.Size > limit:
		return nil, confined.Info{}, release, &fs.PathError{Op: "read", Path: file,
			Err: BoundError(fmt.Sprintf("%d bytes, more than the %d bytes this root's record may hold; it is not read", fi.Size, limit))}
	case b.Reserve != nil && fi.Mode.IsRegular():
		// The file is read up to the size it had when reserved: one
		// that grew since (a save of its own replaced it) waits for
		// the next build.
		limit = max(fi.Size, min(limit, SmallState))
		release = b.Reserve(limit * StateCostPerByte)
	}
	data, st, err = statedir.ReadFile(file, limit)
	if err != nil {
		release()
		release = func() {}
	}
	return data, st, release, err
}

// WriteState writes data to the file name (an OS path) of the state
// directory stateDir, creating the directories on the way when missing.
// A record is replaced atomically: a temporary name beside it, then a
// rename; with sync the file is flushed, and the directories whose
// entries changed (its own, and those on the way to the ones made for
// it) are passed to changed, for the caller's fsyncs after its records.
// The temporary name is name.tmp in a build's own state directory, which
// a killed build's next one overwrites, and a random one
// (statedir.RandomTemp) in a root's own, whose owner may have put
// anything at a fixed name. A stat cache (inPlace) is rewritten in
// place: a torn one lacks its end line and is ignored. With wantStat it
// returns the stat of the file as left on disk.
func WriteState(stateDir, name string, data []byte, sync, inPlace, wantStat bool, changed func(dir string)) (confined.Info, error) {
	tmp := name + ".tmp"
	switch {
	case inPlace:
		tmp = name
	case IsRootState(stateDir):
		tmp = statedir.RandomTemp(name)
	}
	st, err := statedir.WriteFile(tmp, name, data, sync, wantStat)
	if errors.Is(err, fs.ErrNotExist) {
		var made []string
		if err = mkState(stateDir, filepath.Dir(name), func(d string) { made = append(made, d) }); err == nil {
			st, err = statedir.WriteFile(tmp, name, data, sync, wantStat)
		}
		// The directories made: their entries too.
		for _, d := range made {
			if sync {
				changed(filepath.Dir(d))
			}
		}
	}
	if err != nil {
		statedir.Remove(tmp)
		return confined.Info{}, fmt.Errorf("state directory: %w", err)
	}
	if sync {
		changed(filepath.Dir(name))
	}
	return st, nil
}

// mkState creates dir inside the state directory stateDir with its
// parents, calling made for each it creates, and the state directory's
// .gitignore when it creates the state directory's records/ directory.
func mkState(stateDir, dir string, made func(string)) error {
	records := filepath.Join(stateDir, "records")
	created := false
	if err := statedir.CreateDirs(dir, func(d string) { created = created || d == records; made(d) }); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	if created {
		ign := filepath.Join(stateDir, ".gitignore")
		if _, err := statedir.Lstat(ign); errors.Is(err, fs.ErrNotExist) {
			return statedir.WriteNew(ign, []byte(stateIgnore))
		}
	}
	return nil
}

// ParseCacheMax is ParseCache within maxPaths (0: unbounded): a stat
// cache naming more paths is ignored.
func ParseCacheMax(data []byte, maxPaths int) *StatCache {
	sc := ParseCache(data)
	if sc != nil && maxPaths > 0 && len(sc.Files) > maxPaths {
		return nil
	}
	return sc
}

// File is the OS path, in the state directory stateDir, of the record
// named name (ext ".rec") or of its stat cache (".stat").
func File(stateDir, name, ext string) string {
	return filepath.Join(stateDir, filepath.FromSlash(StateBase(stateDir, name)+ext))
}

// Load reads the record named name from file (an OS path) in the state
// directory dir, within b. It returns nil, and no error, when there is
// none.
func Load(dir, file, name string, b Bounds) (*Record, confined.Info, error) {
	data, st, release, err := ReadState(dir, file, MaxSize, b)
	defer release()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, confined.Info{}, nil
	}
	if err != nil {
		return nil, confined.Info{}, fmt.Errorf("%s: %w", file, confined.UnwrapPath(err))
	}
	r, _, err := ParseMax(data, file, b.MaxPaths)
	switch {
	case err != nil:
		return nil, confined.Info{}, err
	case r.Name != name:
		return nil, confined.Info{}, fmt.Errorf("%s: ownership record belongs to %s, not %s", file, r.Name, name)
	}
	return r, st, nil
}
