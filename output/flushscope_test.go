package output

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/output/internal/record"
)

// syncfsBatches makes every batch holding a plan made with opt flushed
// by syncfs, however few files it writes, for the tests of the journals
// that wait for it.
func syncfsBatches(t *testing.T, opt *Options) {
	if confined.SyncDirs {
		testenv.Unsupported(t, "records are fsynced one by one on this system: no journal waits")
	}
	if opt.hooks == nil {
		opt.hooks = &hooks{}
	}
	opt.hooks.syncfs = true
}

// flushLog records, in order, every flush (hooks.flush) and every rename
// (hooks.step) while a test applies c.
type flushLog struct {
	mu     sync.Mutex
	events []string // "syncfs NAME", "fsync NAME", "rename PATH"
}

func logFlushes(c *Changes) *flushLog {
	l := &flushLog{}
	c.opt.hooks = &hooks{step: func(step, p string) error {
		if step == "rename" {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.events = append(l.events, "rename "+p)
		}
		return nil
	}, flush: func(kind, name string) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.events = append(l.events, kind+" "+name)
	}}
	return l
}

// index is the position of the first event e, or -1.
func (l *flushLog) index(e string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Index(l.events, e)
}

func (l *flushLog) matching(f func(string) bool) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, e := range l.events {
		if f(e) {
			out = append(out, e)
		}
	}
	return out
}

// A small Apply (a control panel's save of one tenant) makes durable what
// it wrote and nothing else: each file written, fsynced before its
// rename, each directory whose entries changed, after, the journal and
// the record; no syncfs, which waits for every other writer's data on
// the filesystem. Its journal is gone when it returns: nothing waits for
// a later flush.
func TestSmallApplyFsyncsWhatItWrote(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := NewWriter() // its own: another test's flush would complete its journal
	defer w.Close()
	opt := e.opt()
	c, err := Plan(e.root, files("a.txt", "1\n", "sub/b.txt", "b\n", "gone/c.txt", "c\n"), opt)
	if err != nil || c.Err() != nil {
		t.Fatal(err, c.Err())
	}
	if _, err := w.Apply(c); err != nil {
		t.Fatal(err)
	}
	opt.NoSync = false
	c, err = Plan(e.root, files("a.txt", "2\n", "sub/b.txt", "b\n", "new/deep/d.txt", "d\n"), opt)
	if err != nil || c.Err() != nil {
		t.Fatal(err, c.Err())
	}
	l := logFlushes(c)
	if _, err := w.Apply(c); err != nil {
		t.Fatal(err)
	}
	if js := journals(t, e.state); len(js) != 0 {
		t.Errorf("journals left after a small Apply: %v", js)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if s := l.matching(func(e string) bool { return strings.HasPrefix(e, "syncfs ") }); len(s) != 0 {
		t.Errorf("a small Apply flushed whole filesystems: %v\nall: %v", s, l.events)
	}
	for _, p := range []string{"a.txt", "new/deep/d.txt"} {
		f, r := l.index("fsync "+e.path(p)), l.index("rename "+p)
		if f < 0 || r < 0 || f > r {
			t.Errorf("%s: fsync at %d, rename at %d: want it fsynced before its rename\nall: %v", p, f, r, l.events)
		}
	}
	if f := l.index("fsync " + e.path("sub/b.txt")); f >= 0 {
		t.Errorf("sub/b.txt, unchanged, was fsynced")
	}
	// The root (a.txt's, new's and gone's entries), new (deep's) and
	// new/deep (d.txt's): after the renames.
	last := max(l.index("rename a.txt"), l.index("rename new/deep/d.txt"))
	for _, d := range []string{e.root, e.path("new"), e.path("new/deep")} {
		if f := l.index("fsync " + d); f < last {
			t.Errorf("directory %s: fsync at %d, last rename at %d: want it fsynced after\nall: %v", d, f, last, l.events)
		}
	}
	if f := l.index("fsync " + e.path("sub")); f >= 0 {
		t.Errorf("sub, whose entries did not change, was fsynced")
	}
	jnl := l.matching(func(e string) bool { return strings.HasPrefix(e, "fsync ") && strings.HasSuffix(e, record.JournalExt) })
	if len(jnl) != 1 || l.index(jnl[0]) > l.index("rename a.txt") {
		t.Errorf("journal fsyncs %v: want one, before the first rename\nall: %v", jnl, l.events)
	}
	if l.index("fsync "+filepath.Join(e.state, record.JournalDir)) < 0 {
		t.Errorf("the journal's directory was not fsynced\nall: %v", l.events)
	}
	rec := l.matching(func(e string) bool { return strings.HasPrefix(e, "fsync ") && strings.HasSuffix(e, ".rec") })
	if len(rec) != 1 {
		t.Errorf("record fsyncs %v: want one\nall: %v", rec, l.events)
	}
}

// A batch of more files than syncEachMax (a full build's batch of tens
// of tenants) shares one syncfs of the filesystem before its renames,
// and fsyncs none of them; its journal waits for the next one (Flush).
func TestLargeBatchFlushesFilesystem(t *testing.T) {
	t.Parallel()
	if confined.SyncDirs {
		testenv.Unsupported(t, "no syncfs on this system")
	}
	e := newEnv(t)
	w := NewWriter() // its own: another test's flush would complete its journal
	defer w.Close()
	opt := e.opt()
	opt.NoSync = false
	var kv []string
	for i := range syncEachMax + 1 {
		kv = append(kv, fmt.Sprintf("f%03d.txt", i), "x\n")
	}
	c, err := Plan(e.root, files(kv...), opt)
	if err != nil || c.Err() != nil {
		t.Fatal(err, c.Err())
	}
	l := logFlushes(c)
	if _, err := w.Apply(c); err != nil {
		t.Fatal(err)
	}
	if js := journals(t, e.state); len(js) != 1 {
		t.Errorf("journals waiting after a large Apply: %v, want one", js)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	s := l.matching(func(e string) bool { return strings.HasPrefix(e, "syncfs ") })
	if len(s) != 2 || l.index(s[0]) > l.index("rename f000.txt") {
		t.Errorf("syncfs %v: want one before the renames and one in Flush\nall: %v", s, l.events)
	}
	if f := l.matching(func(e string) bool { return strings.HasPrefix(e, "fsync ") }); len(f) != 0 {
		t.Errorf("a large batch fsynced %d files and directories: %v", len(f), f)
	}
}
