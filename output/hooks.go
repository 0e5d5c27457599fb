package output

import (
	"slices"

	"github.com/discgen/discgen/internal/statedir"
)

// hooks are what a test asks a plan (Options.hooks) or a read of the
// journals to call, each its own, so that tests that set them run in
// parallel. A nil *hooks, and a nil field, call nothing.
type hooks struct {
	// step is called before each step of Apply on a file ("write" once
	// its temporary file holds the bytes, "rename" before publishing
	// it); an error it returns fails that step.
	step func(step, p string) error
	// journalOpen is called with each journal file a walk opens.
	journalOpen func(file string)
	// plan is called once Plan has opened an existing directory below
	// the root to inspect its paths; an error it returns fails the
	// plan, as a failure to open the directory does.
	plan func(d string) error
	// flush is told of every flush to disk made for the plan, before it
	// is made: "syncfs" of a whole filesystem, named by a directory on
	// it, or "fsync" of one file or directory, named by its path (an
	// output's joined to its root as given to Plan, a state file's OS
	// path). A flush made for a batch (its journal, a syncfs, a Writer's
	// Flush) is told to the hooks of each of its roots.
	flush func(kind, name string)
	// syncfs makes a batch holding the plan flushed by syncfs, however
	// few files it writes (not made durable file by file: syncEach).
	syncfs bool
	// lockDir replaces statedir.UserLockDir as the directory of the
	// output root's lock (outlock.go).
	lockDir string
}

func (h *hooks) hook(step, p string) error {
	if h == nil || h.step == nil {
		return nil
	}
	return h.step(step, p)
}

func (h *hooks) opening(file string) {
	if h != nil && h.journalOpen != nil {
		h.journalOpen(file)
	}
}

func (h *hooks) planning(d string) error {
	if h == nil || h.plan == nil {
		return nil
	}
	return h.plan(d)
}

// outputLockDir is the directory of the output root's lock.
func (h *hooks) outputLockDir() string {
	if h != nil && h.lockDir != "" {
		return h.lockDir
	}
	return statedir.UserLockDir()
}

// flushed tells h of a flush.
func (h *hooks) flushed(kind, name string) {
	if h != nil && h.flush != nil {
		h.flush(kind, name)
	}
}

// hookSet is the hooks of the roots a flush is made for, each once.
type hookSet []*hooks

// add adds h, when it is set and not in s yet.
func (s hookSet) add(h *hooks) hookSet {
	if h == nil || slices.Contains(s, h) {
		return s
	}
	return append(s, h)
}

// flushed tells each of s of a flush.
func (s hookSet) flushed(kind, name string) {
	for _, h := range s {
		h.flushed(kind, name)
	}
}
