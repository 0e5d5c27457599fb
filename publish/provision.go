package publish

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
	"github.com/discgen/discgen/output"
)

// Provisioned is what Provision did for one --tenant file.
type Provisioned struct {
	File     string // the tenant manifest as given; it need not exist
	Dir      string // the tenant's directory, as messages show it
	StateDir string // the tenant's own state directory
	UID, GID int    // the owner it was given to: the directory's
	Err      error  // why it was not provisioned; nil when it was
	// Unprovision: Removed reports that the state was there and is
	// removed; false with a nil Err, that there was none.
	Removed bool
}

// ErrNoDelegation is a Provisioned's error for a file no tenants glob
// matches.
var ErrNoDelegation = errNoDelegation

// errProvisionRoot and errUnprovisionRoot refuse provisioning by a user
// other than root, who could neither make the state nor give it away, nor
// remove it.
var (
	errProvisionRoot   = errors.New("--provision: run as root: only root makes a tenant's state and gives it to the tenant's owner")
	errUnprovisionRoot = errors.New("--unprovision: run as root: only root removes a tenant's state")
)

// Provision makes the state directory of its own of each tenant in
// opt.Tenants, below opt.StateDir, and gives its two directories (the
// record's and the journal's) to the owner of the tenant's directory, as
// a build run as root with --tenant-owner does on the tenant's first
// build, and builds nothing. The manifest need not exist: a control
// panel provisions an account when it creates it, so that the account's
// own first save (a --tenant build run as its user) finds its state.
//
// Each file is matched against the delegations' tenants globs and its
// directory reached by the walk's confined path (never through a
// symlink below the glob's fixed prefix). It fails as a whole, with the
// site manifest's diagnostics, when that manifest is invalid or the
// state directory lies in a tenant's; otherwise each file has its
// result, in order.
func Provision(opt Options) ([]Provisioned, diag.List) {
	return provision(opt, false)
}

// Unprovision removes the state directory of its own of each tenant in
// opt.Tenants, once the tenant's directory is gone: a control panel runs
// it when it has removed an account, so that a later account given the
// same directory starts without the old one's record (which would claim
// files of the new account as discgen's). A tenant whose directory still
// exists keeps its state, and is an error: its record is what lets a
// build replace the files discgen wrote there. Nothing is built.
func Unprovision(opt Options) ([]Provisioned, diag.List) {
	return provision(opt, true)
}

func provision(opt Options, remove bool) ([]Provisioned, diag.List) {
	if os.Geteuid() != 0 {
		var l diag.List
		err := errProvisionRoot
		if remove {
			err = errUnprovisionRoot
		}
		l.Errorf(diag.Pos{File: opt.Manifest}, "", "%v", err)
		return nil, l
	}
	s, diags := LoadSite(opt)
	if s == nil {
		return nil, diags
	}
	dels, derrs := s.delegations()
	diags.Append(derrs)
	if l := stateInTenants(opt, s, dels); len(l) > 0 {
		diags.Append(l)
	}
	if diags.HasErrors() {
		diags.Sort()
		return nil, diags
	}
	stateAbs, err := filepath.Abs(opt.StateDir)
	if err != nil {
		diags.Errorf(diag.Pos{File: opt.Manifest}, "", "state directory %s: %v", opt.StateDir, err)
		return nil, diags
	}
	var out []Provisioned
	for _, f := range opt.Tenants {
		if remove {
			out = append(out, unprovisionOne(dels, filepath.Dir(stateAbs), opt.StateDir, f))
		} else {
			out = append(out, provisionOne(dels, filepath.Dir(stateAbs), opt.StateDir, f))
		}
	}
	return out, diags
}

// tenantOf finds the delegation whose tenants glob matches file, and the
// components of file below the glob's prefix; errNoDelegation when none
// does.
func tenantOf(dels []*delegation, file string) (*delegation, []string, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, nil, err
	}
	for _, d := range dels {
		comps, caps, ok := d.pat.matchFile(abs)
		if !ok {
			continue
		}
		if _, err := bindSpace(d.path, caps); err != nil {
			return nil, nil, err
		}
		return d, comps, nil
	}
	return nil, nil, errNoDelegation
}

func provisionOne(dels []*delegation, stateParent, stateDir, file string) Provisioned {
	r := Provisioned{File: file, Dir: filepath.Dir(file)}
	d, comps, err := tenantOf(dels, file)
	if err != nil {
		r.Err = err
		return r
	}
	top, err := confined.OpenTop(d.pat.prefix)
	if err != nil {
		r.Err = fmt.Errorf("cannot open %s: %v", d.pat.show, errText(err))
		return r
	}
	defer top.Close()
	dir := top
	rel := strings.Join(comps[:len(comps)-1], "/")
	for i, c := range comps[:len(comps)-1] {
		at := filepath.Join(d.pat.show, filepath.FromSlash(strings.Join(comps[:i+1], "/")))
		if fi, err := dir.Lstat(c); err == nil && fi.Mode&fs.ModeSymlink != 0 {
			r.Err = fmt.Errorf("a symbolic link at %s: a tenant's directory is reached without following one", at)
			return r
		}
		next, err := dir.OpenDir(c)
		if err != nil {
			r.Err = fmt.Errorf("cannot open %s: %v", at, errText(err))
			return r
		}
		defer next.Close()
		dir = next
	}
	fi, err := dir.Stat()
	if err != nil {
		r.Err = fmt.Errorf("cannot stat it: %v", errText(err))
		return r
	}
	r.UID, r.GID = fi.UID, fi.GID
	// The record's name, as the build names it (recordName).
	record, err := filepath.Rel(stateParent, filepath.Join(d.pat.prefix, filepath.FromSlash(rel)))
	if err != nil {
		r.Err = err
		return r
	}
	record = filepath.ToSlash(record)
	r.StateDir = output.RootStateDir(stateDir, record)
	if _, err := output.PrepareRootState(r.StateDir, record, &output.Owner{UID: fi.UID, GID: fi.GID}); err != nil {
		r.Err = err
	}
	return r
}

// unprovisionOne removes one tenant's own state, its directory gone.
func unprovisionOne(dels []*delegation, stateParent, stateDir, file string) Provisioned {
	r := Provisioned{File: file, Dir: filepath.Dir(file)}
	d, comps, err := tenantOf(dels, file)
	if err != nil {
		r.Err = err
		return r
	}
	rel := strings.Join(comps[:len(comps)-1], "/")
	gone, err := dirGone(d.pat.prefix, rel)
	if err != nil {
		r.Err = err
		return r
	}
	if !gone {
		r.Err = errors.New("the directory still exists: its state stays while it does (remove the account's files first)")
		return r
	}
	record, err := filepath.Rel(stateParent, filepath.Join(d.pat.prefix, filepath.FromSlash(rel)))
	if err != nil {
		r.Err = err
		return r
	}
	r.StateDir = output.RootStateDir(stateDir, filepath.ToSlash(record))
	fi, err := statedir.Lstat(r.StateDir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		r.Err = err
	case !fi.Mode.IsDir():
		r.Err = fmt.Errorf("state directory: %s is not a directory", r.StateDir)
	default:
		// What the tenant left there (its record, journals,
		// anything it made) is unlinked, never followed.
		r.Err = statedir.RemoveAll(r.StateDir)
		r.Removed = r.Err == nil
	}
	if r.Err == nil {
		// And what an earlier layout kept for it.
		r.Err = output.RemoveFormerRootState(r.StateDir)
	}
	return r
}

// dirGone reports whether the tenant directory rel, below the glob's
// prefix, is gone: the walk the build makes finds nothing there. A
// symbolic link where a directory was is something there.
func dirGone(prefix, rel string) (bool, error) {
	top, err := confined.OpenTop(prefix)
	if confined.IsAbsent(err) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	defer top.Close()
	if rel == "" {
		return false, nil
	}
	dir, err := top.OpenPath(rel)
	switch {
	case err == nil:
		dir.Close()
		return false, nil
	case confined.IsAbsent(err):
		return true, nil
	case confined.IsSymlink(err) || confined.IsNotDir(err):
		return false, nil
	}
	return false, err
}
