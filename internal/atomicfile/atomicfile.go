// Package atomicfile writes a file a user names on the command line
// (import -o, presets update, ranges update, report -o, schema -o) so
// that it is never seen in part: the bytes go to a temporary file in the
// same directory, which is flushed and renamed over the name, and the
// directory is flushed after. The output roots of a build are written by
// package output instead, and the state directory by internal/statedir.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write writes data to name through a temporary file in the same
// directory, so that name holds either what it held before or all of
// data, and flushes the file and then its directory, so that a crash
// after Write returns loses neither. The file is readable by all and
// writable by its owner (0644, whatever the umask: a manifest, a
// catalogue, a report or a schema is meant to be read by the web server
// and by others); whatever was at name, a symbolic link included, is
// replaced, not written through. On an error the temporary file is removed
// and name is as it was.
func Write(name string, data []byte) error {
	dir := filepath.Dir(name)
	tmp, err := os.CreateTemp(dir, ".discgen-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // once renamed, the name is gone: a no-op
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir flushes a directory, so that a rename in it survives a crash.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
