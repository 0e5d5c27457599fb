package publish

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/discgen/discgen/internal/bug"
	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/output"
)

// Batched writes. Applying a plan of many files flushes the filesystem
// (syncfs) before its renames, and syncfs flushes the whole disk. The workers therefore
// only plan; a batcher applies up to applyBatch plans at once with
// output.Writer.ApplyAll, which flushes once per batch on Linux: every root's
// temporary files, one flush (which also completes the batch before),
// every root's renames and records. The renames of the last batch are
// flushed by the Writer's Flush at the end of the build (docs/output-design.md,
// "Durability, in batches or file by file"). A batch of a few dozen files
// or fewer (a --tenant save, a partial batch of a slow walk) is made
// durable by an fsync of each file and directory it changed instead,
// which does not wait for what other processes wrote to the disk.
//
// Memory and descriptors stay bounded and flat in the number of tenants:
// at most appliers × applyBatch plans wait in the batchers, and each
// worker holds at most one more while it waits to hand it over. A waiting
// plan holds its tenant's directory (the walk's handle), the os.Root on
// it and the handles the plan keeps (the output directories it opened,
// and during ApplyAll the lock): about 5 descriptors each (a build of
// 1,500 tenants peaked at 1,668 open descriptors with 4 × 64 plans and 64
// workers). The Go runtime raises the soft RLIMIT_NOFILE to the hard limit
// at start-up (often 4096 to 1048576, but it can be 1024), so the number
// of batches in flight is cut to what the limit holds at 8 descriptors a
// plan, down to one batch (64 plans and 64 workers: about 700).
const applyBatch = 64

// appliers is how many batchers apply batches at once. ApplyAll writes a
// batch's files from one goroutine; a few batches in flight keep both the
// disk and the CPUs busy, and their flushes overlap.
const appliers = 4

// fdsPerPlan is the descriptors a plan in work is counted at.
const fdsPerPlan = 8

// batchersFor is how many batchers a run of jobs workers starts under an
// open-file limit (0: unknown).
func batchersFor(jobs int, limit uint64) int {
	if limit == 0 {
		return 1
	}
	need := uint64(128 + jobs*fdsPerPlan) // the walk, the state, the workers
	if limit < need+applyBatch*fdsPerPlan {
		return 1
	}
	return int(min(uint64(appliers), (limit-need)/(applyBatch*fdsPerPlan)))
}

// applyWait is how long a partial batch waits for more plans before it is
// applied anyway, so a slow walk does not hold finished tenants.
const applyWait = 50 * time.Millisecond

// pending is one tenant's plan waiting for its batch.
type pending struct {
	u    *Unit
	ch   *output.Changes
	dir  *confined.Dir // the tenant's directory, from the walk
	root *os.Root
	id   confined.Info // the directory's identity: a batch holds one plan per root
}

// batcher applies the plans sent to in, in batches, and reports each unit.
func (p *pipeline) batcher(in <-chan *pending) {
	var b []*pending
	var timer *time.Timer
	var tick <-chan time.Time
	flush := func() {
		if timer != nil {
			timer.Stop()
			timer, tick = nil, nil
		}
		if len(b) > 0 {
			p.applyBatch(b)
			clear(b)
			b = b[:0]
		}
	}
	for {
		select {
		case w, ok := <-in:
			if !ok {
				flush()
				return
			}
			for _, o := range b {
				if o.id.Is(w.id) {
					flush() // the same root twice (--tenant FILE FILE)
					break
				}
			}
			b = append(b, w)
			if len(b) >= p.size.batch {
				flush()
			} else if timer == nil {
				timer = time.NewTimer(applyWait)
				tick = timer.C
			}
		case <-tick:
			timer, tick = nil, nil
			flush()
		}
	}
}

// applyBatch applies one batch and reports its units. ApplyAll locks the
// roots in the order given and holds every lock to the end; in the order
// of their directories' identity, two builds of the same tenants at once
// (an overrun cron job) always lock them in one order and never wait on
// each other in a circle.
func (p *pipeline) applyBatch(b []*pending) {
	slices.SortFunc(b, func(x, y *pending) int {
		return cmp.Or(cmp.Compare(x.id.Dev, y.id.Dev), cmp.Compare(x.id.Ino, y.id.Ino))
	})
	rs, errs, msg := p.applyAll(b)
	for i, w := range b {
		if msg != "" {
			refuseAsBug(w.u, msg)
			w.ch.Close()
		} else {
			settle(w.u, rs[i], errs[i])
		}
		w.root.Close()
		w.dir.Close()
		p.emit(w.u)
	}
}

// applyAll applies a batch's plans. A panic while the batch is applied
// cannot be laid at one tenant's door: it refuses every tenant of the
// batch (msg is the message), whose journal the next build recovers as
// after a killed build, and the batcher goes on with the next batch.
func (p *pipeline) applyAll(b []*pending) (rs []output.Result, errs []error, msg string) {
	defer func() {
		if v := recover(); v != nil {
			msg = bug.Text(v)
			if len(b) > 1 {
				msg += fmt.Sprintf("; while applying a batch of %d tenants, each refused", len(b))
			}
		}
	}()
	cs := make([]*output.Changes, len(b))
	for i, w := range b {
		p.opt.hooks.atStage("apply", w.u.Dir)
		cs[i] = w.ch
	}
	p.opt.hooks.atBatch(len(b))
	rs, errs = p.opt.writer.ApplyAll(cs)
	return rs, errs, ""
}
