package output

import (
	"path/filepath"

	"github.com/discgen/discgen/output/internal/record"
)

// A format 1 record taken over (its format, and what deleting format 1
// takes, are package record's format1.go): looked for only when
// STATEDIR/outputs exists (record.Format1In), only in a build's own state
// directory, read when no format 2 record exists, used if its root line
// is the root being built, and replaced by a format 2 record at the next
// Apply.

// loadRecord1 looks for a format 1 record of the root, keyed by its
// absolute path, and takes it over when its root line matches. A root's
// own state directory (one with a FormerStateDir) is newer than format 1
// and never held one.
func (c *Changes) loadRecord1() error {
	if c.opt.FormerStateDir != "" || !record.Format1In(c.opt.StateDir) || c.setAbs() != nil {
		return nil
	}
	name := filepath.Join(c.opt.StateDir, filepath.FromSlash(record.Base1(c.abs)+".rec"))
	data, _, release, err := c.readState(c.opt.StateDir, name, record.MaxSize)
	defer release()
	if err != nil {
		return nil
	}
	r, root, err := record.ParseMax(data, name, c.opt.MaxPaths)
	if err != nil || root != c.abs {
		return nil // not this root's: left alone
	}
	r.Name, r.Temps = c.name, nil
	c.rec, c.v1 = r, name
	return nil
}
