package output

import (
	"path/filepath"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/output/internal/record"
)

// The ownership record of a plan's root, loaded and written through
// package record (which holds its format, its place and its files): the
// record as found (loadRecord, and loadFormer from the former state
// directory), and the state files Apply writes (writeState). Format 1's
// record is record_format1.go's; the stat cache is cache.go's; the
// journal that makes a record's intent durable before a batch changes
// anything is package journal's (written by journal.go).

// readState is record.ReadState within the bounds of c's options
// (MaxPaths, Reserve).
func (c *Changes) readState(dir, file string, limit int64) (data []byte, st confined.Info, release func(), err error) {
	return record.ReadState(dir, file, limit, c.bounds())
}

// bounds are the bounds of c's options a record or stat cache is read
// within.
func (c *Changes) bounds() record.Bounds {
	return record.Bounds{MaxPaths: c.opt.MaxPaths, Reserve: c.opt.Reserve}
}

// loadRecord reads the record stored under c.name. A missing record is an
// empty one (exists false): discgen owns nothing there yet, unless the
// former state directory holds it (loadFormer) or a format 1 record keyed
// by the root's absolute path exists, which is read and migrated
// (loadRecord1: c.v1 names it, and Apply replaces it by a format 2
// record).
func (c *Changes) loadRecord() error {
	r, st, err := record.Load(c.opt.StateDir, c.recordFile(".rec"), c.name, c.bounds())
	switch {
	case err != nil:
		return err
	case r == nil:
		c.rec = record.New(c.name)
		if ok, err := c.loadFormer(); ok || err != nil {
			return err
		}
		return c.loadRecord1()
	}
	c.rec, c.recExists, c.recStat = r, true, st
	return nil
}

// loadFormer reads the record of c from Options.FormerStateDir, when
// there is one: it owns what the root holds until Apply writes the record
// to Options.StateDir (c.recExists stays false, so Apply writes it).
func (c *Changes) loadFormer() (bool, error) {
	if c.opt.FormerStateDir == "" {
		return false, nil
	}
	name := filepath.Join(c.opt.FormerStateDir, filepath.FromSlash(record.Base(c.name)+".rec"))
	r, _, err := record.Load(c.opt.FormerStateDir, name, c.name, c.bounds())
	if r == nil || err != nil {
		return false, err
	}
	c.rec = r
	return true, nil
}

// recordFile returns the OS path of the record (ext ".rec") or stat cache
// (ext ".stat") of c.
func (c *Changes) recordFile(ext string) string {
	return record.File(c.opt.StateDir, c.name, ext)
}

// writeState is record.WriteState in c's state directory: with sync, the
// flush is told to c's hooks, and the directories whose entries changed
// are noted in c.stateDirs for the batch's fsyncs after the records
// (syncAfter).
func (c *Changes) writeState(name string, data []byte, sync, inPlace, wantStat bool) (confined.Info, error) {
	if sync {
		c.opt.hooks.flushed("fsync", name)
	}
	return record.WriteState(c.opt.StateDir, name, data, sync, inPlace, wantStat, func(d string) { c.stateDirs = append(c.stateDirs, d) })
}

// parseCache is record.ParseCache within Options.MaxPaths.
func (c *Changes) parseCache(data []byte) *record.StatCache {
	return record.ParseCacheMax(data, c.opt.MaxPaths)
}
