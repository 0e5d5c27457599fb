// Package record holds what package output keeps of a root in a state
// directory, and where: the ownership record (what discgen wrote under
// the root: Record, its format, Parse and Marshal), the machine-local
// stat cache beside it and the refusal cache's format, the layout of a
// state directory (records/ab/cd/<hash>.rec, journal/), and a root's own
// state directory (RootStateDir, PrepareRootState), which a build run as
// root makes for each tenant and its owner may write.
//
// Its files, one a concern: record.go, the record, its format and the
// temporary file names it lists; state.go, a record or stat cache read
// within bounds (ReadState) and written atomically (WriteState);
// cache.go, the stat cache and the refusal cache; rootstate.go, a root's
// own state directory, made and bounded. Two hold only the compatibility
// with earlier versions, and say what deleting them takes: format1.go
// (format 1 records) and rootstate_former.go (the former layout of a
// root's own state directory).
//
// It plans and writes nothing under an output root, and knows of the
// journal only its place (JournalDir, JournalExt): package output loads
// and writes records for a plan (output's record.go, cache.go), and its
// journal merges intents into them (Record.Absorb). Every file it opens is reached through
// internal/statedir, without following a symlink or waiting on a FIFO.
// The design is docs/output-design.md.
package record
