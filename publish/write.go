package publish

import (
	"hash/fnv"
	"os"
	"path"

	"github.com/discgen/discgen/diag"

	"github.com/discgen/discgen/output"
	"github.com/discgen/discgen/tree"
)

// write plans and applies a tenant's tree in its directory.
func (p *pipeline) write(j *job, u *Unit, t tree.Tree) {
	root, err := rootOf(j.dir)
	if err != nil {
		u.Status = Skipped
		u.Diags.Errorf(posOf(u), "", "cannot open %s: %v", j.show, errText(err))
		return
	}
	defer root.Close()
	// The ownership record is keyed by the directory's path; the root is
	// reached through the trusted home directory, never through a symlink.
	finish(p.opt, u, t, func(o output.Options) (*output.Changes, error) {
		o.Within = j.home()
		return output.Plan(j.realPath(), t, o)
	})
	if p.opt.TenantOwner && p.opt.Mode == Write && u.Status == Built {
		if err := chownTree(root, t, j.owner()); err != nil {
			u.Status = Refused
			u.Diags.Errorf(posOf(u), "", "cannot give the tenant's files to their owner: %v", err)
		}
	}
}

// owner is who owns the tenant's directory.
func (j *job) owner() [2]int {
	fi, err := statFile(j.dir)
	if err != nil {
		return [2]int{-1, -1}
	}
	return [2]int{fi.uid, fi.gid}
}

// chownTree gives every path of t, and the directories holding them,
// to owner, through root.
func chownTree(root *os.Root, t tree.Tree, owner [2]int) error {
	if owner[0] < 0 {
		return nil
	}
	dirs := map[string]bool{}
	for _, p := range t.Paths() {
		for d := path.Dir(p); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
			if err := root.Lchown(d, owner[0], owner[1]); err != nil {
				return err
			}
		}
		if err := root.Lchown(p, owner[0], owner[1]); err != nil {
			return err
		}
	}
	return nil
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

func posOf(u *Unit) diag.Pos {
	if u.Manifest != "" {
		return diag.Pos{File: u.Manifest}
	}
	return diag.Pos{File: u.Dir}
}
