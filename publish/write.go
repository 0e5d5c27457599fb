package publish

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/output"
	"github.com/discgen/discgen/tree"
)

// keyVersion changes when what the key covers changes.
const keyVersion = "discgen tenant key 1"

// key fingerprints everything a tenant's tree depends on, without reading
// its manifest: discgen's version, the site's URL, the delegation (path,
// only, except, glob), the mode flags, and the manifest's size, times,
// inode and device. A tenant whose key and outputs stat as when it was
// last written is unchanged, at the cost of a few stats.
func (p *pipeline) key(j *job) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n%s\n%s\n%d %d %d %d %d %s\n",
		keyVersion, p.opt.Version, p.site.URL, j.d.summary, j.rel,
		j.info.Size, j.info.Mtime, j.info.Ctime, j.info.Ino, j.info.Dev, j.name)
	if p.opt.TenantOwner {
		fmt.Fprintf(h, "owner\n")
	}
	return hex.EncodeToString(h.Sum(nil))
}

// outputOptions are the output options of a tenant whose directory is
// open as root.
//
// A tenant's record and stat cache are kept in a state
// directory of its own (output.RootStateDir), which a build run as root
// with --tenant-owner gives to the tenant's owner: the owner's own
// --tenant build writes there, and in no other tenant's. A build that may
// write the build's state directory (root's) journals there, one journal
// a batch; the owner's build journals in the tenant's own. A record an
// earlier build kept in the build's state directory is read from there
// until the tenant's own has one.
func (p *pipeline) outputOptions(j *job, root *os.Root) output.Options {
	o := p.stateOptions(j, root)
	if p.opt.TenantOwner {
		if fi, err := j.dirStat(); err == nil {
			o.Owner = p.tenantOwner(fi)
		}
	}
	return o
}

// stateOptions are outputOptions without the owner of what a build
// creates, which takes a stat of the tenant's directory: enough for
// output.FreshIn, which creates nothing. They are made once for the
// manifest as stat'ed, and again when the file read is another (the key
// is of the file read).
func (p *pipeline) stateOptions(j *job, root *os.Root) output.Options {
	if j.opts == nil || j.optsInfo != j.info {
		o := p.newStateOptions(j)
		j.opts, j.optsInfo = &o, j.info
	}
	o := *j.opts
	o.Dir = root
	return o
}

func (p *pipeline) newStateOptions(j *job) output.Options {
	o := output.Options{StateDir: p.opt.StateDir, Replace: p.opt.Replace, Key: p.key(j), Record: p.recordName(j), Journals: p.opt.journals,
		Superseded: func() bool { return manifestChanged(j) },
		MaxPaths:   j.d.limits.recordPaths(), Reserve: p.reserveState}
	if o.Record != "" {
		o.StateDir, o.FormerStateDir = output.RootStateDir(p.opt.StateDir, o.Record), p.opt.StateDir
		if p.sharedJournal {
			o.JournalDir = p.opt.StateDir
		}
	}
	return o
}

// tenantOwner is the owner --tenant-owner gives what a build creates in
// a tenant's directory, whose stat is fi: the directory's owner and
// group, as a set-group-ID directory would, so that whoever reads the
// tenant's files through the directory's group (the web server, where
// public_html is user:nobody, mode 0750) reads these too. A build run by
// a user (the tenant's own save; notOwn left it only its own tenants)
// gives the directory's group only when the user is in it, since no
// other user may: otherwise it gives nothing, and what it creates keeps
// the group the system gives it, the user's own (or the directory's,
// when the directory is set-group-ID), as the user's other files do.
func (p *pipeline) tenantOwner(fi confined.Info) *output.Owner {
	if p.euid > 0 && !inGroup(fi.GID) {
		return nil
	}
	return &output.Owner{UID: fi.UID, GID: fi.GID}
}

// inGroup reports whether this process may give a file the group gid:
// its effective group, or one of its supplementary groups.
func inGroup(gid int) bool {
	if gid == os.Getegid() {
		return true
	}
	groups, err := os.Getgroups()
	return err == nil && slices.Contains(groups, gid)
}

// notOwn says why a build run by a user other than root does not write
// the tenant: its directory belongs to another user, whose files and
// record this user may neither write nor forge. "" lets it be written.
func (p *pipeline) notOwn(j *job) string {
	euid := p.euid
	if p.opt.Mode != Write || euid <= 0 {
		return "" // root, or no users (Windows)
	}
	fi, err := j.dirStat()
	if err != nil || fi.UID == euid {
		return ""
	}
	return fmt.Sprintf("%s belongs to uid %d, not to this user (uid %d): a build not run as root writes only its own user's tenants", j.show, fi.UID, euid)
}

// ownState makes the tenant's own state directory ready and recovers
// what a killed build of the tenant left there, before it is planned: it
// returns the options to plan with.
func (p *pipeline) ownState(o output.Options) (output.Options, error) {
	if o.FormerStateDir == "" {
		return o, nil
	}
	made, err := output.PrepareRootState(o.StateDir, o.Record, o.Owner)
	if errors.Is(err, fs.ErrPermission) && p.euid > 0 {
		return o, &notProvisionedError{state: p.opt.StateDir, err: err}
	}
	if err != nil || made {
		return o, err // a new journal directory holds nothing to recover
	}
	_, jr, err := output.RecoverWithin(o.StateDir, o) // o's MaxPaths and Reserve
	if err != nil {
		return o, err
	}
	o.Journals = o.Journals.Add(jr)
	return o, nil
}

// notProvisionedError is a tenant whose own state directory a build not
// run as root may not make: root makes it, on the tenant's first build or
// when it provisions the tenant (Provision). The tenant is skipped, not
// refused: nothing is wrong with what it wrote.
type notProvisionedError struct {
	dir, state string
	err        error
}

func (e *notProvisionedError) Error() string {
	return fmt.Sprintf("%s: not provisioned: this user may not make its state in %s (permission denied); a build run as root with --tenant-owner makes it: build --provision, which a control panel runs when it creates the account, or root's full build", e.dir, e.state)
}

func (e *notProvisionedError) Unwrap() error { return e.err }

// manifestChanged reports whether the tenant's manifest is no longer the
// file read (a save replaced or rewrote it since), or is gone: a build
// beside a save then leaves the tenant to the save's own build, which
// read the newer manifest, instead of putting the older tree over it.
func manifestChanged(j *job) bool {
	now, err := j.dir.Lstat(j.name)
	return err != nil || !now.Is(j.info) || now.Size != j.info.Size || now.Mtime != j.info.Mtime || now.Ctime != j.info.Ctime
}

// recordName is the name of a tenant's ownership record: the one output
// derives by default (the tenant's directory relative to the state
// directory's parent), computed here from the glob's absolute prefix so
// that output, given Dir and Record, never calls getcwd for the tenant
// (two stats each time). "" leaves it to output.
func (p *pipeline) recordName(j *job) string {
	if p.stateParent == "" || (p.opt.hooks != nil && p.opt.hooks.noRecordName) {
		return ""
	}
	rel, err := filepath.Rel(p.stateParent, filepath.Join(j.d.pat.prefix, filepath.FromSlash(j.rel)))
	if err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}

// fresh reports whether the tenant is known to be up to date: the same key
// as when its outputs were written, and every output unchanged since. It
// opens the tenant's directory as a root when it is not, which the caller
// closes.
func (p *pipeline) fresh(j *job) (bool, *os.Root, error) {
	if p.opt.Mode == Render {
		return false, nil, nil
	}
	if ok, err := output.FreshIn(j.show, j.dir, p.stateOptions(j, nil)); ok && err == nil {
		return true, nil, nil
	}
	root, err := j.dir.Root()
	return false, root, err
}

// write plans a tenant's tree in its directory, through the directory the
// walk opened. In Write mode it hands the plan to the batcher, which
// applies it, reports the unit and closes root and j.dir, and returns
// true; otherwise it sets the unit's status and returns false.
func (p *pipeline) write(j *job, u *Unit, root *os.Root, t tree.Tree) bool {
	p.opt.hooks.atStage("plan", j.show)
	o := p.outputOptions(j, root)
	if p.opt.Mode != Write || p.plans == nil {
		finish(p.opt, u, t, func(base output.Options) (*output.Changes, error) {
			o.Replace = base.Replace
			if o.FormerStateDir == "" {
				o.StateDir = base.StateDir
			} else if p.opt.Mode != Render {
				// What a killed build of the tenant left is
				// counted as the next build will count it.
				jr, err := output.ReadJournals(o.StateDir)
				if _, ok := errors.AsType[*output.CrowdedError](err); ok {
					return nil, err // refused, as a build refuses it
				}
				o.Journals = o.Journals.Add(jr)
			}
			return output.Plan(j.show, t, o)
		})
		return false
	}
	o, err := p.ownState(o)
	if _, ok := errors.AsType[*output.DeferredError](err); ok {
		err = &output.DeferredError{Root: j.show} // named as its other lines name it
	}
	if err != nil {
		var np *notProvisionedError
		if errors.As(err, &np) {
			np.dir = j.show
		}
		fail(u, err)
		return false
	}
	ch, err := output.Plan(j.show, t, o)
	if err != nil {
		u.Problem = err
		u.Status = Refused
		return false
	}
	// Without the directory's identity (no fstat) a repeated root is
	// refused by its lock instead of waiting for the next batch.
	id, _ := j.dirStat()
	p.plans <- &pending{u: u, ch: ch, dir: j.dir, root: root, id: id}
	return true
}

// inShard reports whether the tenant directory rel (relative to its glob's
// prefix) belongs to shard k of n: FNV-1a of rel, modulo n. The partition
// depends only on the directory's name, so it is stable from run to run
// and machine to machine.
func inShard(rel string, k, n int) bool {
	h := fnv.New64a()
	h.Write([]byte(rel))
	return int(h.Sum64()%uint64(n)) == k-1
}
