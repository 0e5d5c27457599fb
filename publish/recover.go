package publish

import (
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/output"
)

// A panic is a bug in discgen, never the tenant's doing; but a tenant's
// manifest may be what reaches it, and one tenant must not stop the
// others. So every goroutine of the pipeline that works for tenants (the
// workers, the batchers) recovers a panic, refuses the tenants it was
// working for with a message that says it is a bug and where it
// happened, and goes on with the next. The site's own build recovers
// one too (the site is refused, every tenant built), and so does the walk
// of each glob (that glob's walk stops, with one message, the tenants it
// found are built, and the other globs walked).

// refuseAsBug marks u refused by a panic, msg being bug.Text's message.
func refuseAsBug(u *Unit, msg string) {
	pos := diag.Pos{File: u.Manifest}
	if pos.File == "" {
		pos.File = u.Dir
	}
	u.Status = Refused
	u.Tree = nil
	u.Diags.Errorf(pos, "", "%s", msg)
}

// recoverBounds is what bounds the build's recovery, before any tenant is
// planned, of what a killed build left for tenants in their own records
// (output.RecoverWithin): each record, which its tenant may write, holds
// no more lines than the largest record a tenant of any delegation may
// (the tenant's own delegation is known only once the tenants are
// walked; a tenant's own build, and each plan, bound it by its own), and
// what reading them takes comes out of the build's memory budget, the
// pipeline not having started.
func recoverBounds(dels []*delegation, size sizing) output.Options {
	most := tenantLimits{files: DefaultTenantFiles}.recordPaths()
	for _, d := range dels {
		most = max(most, d.limits.recordPaths())
	}
	b := newBudget(size.budget)
	return output.Options{MaxPaths: most, Reserve: func(n int64) func() {
		got := b.acquire(n)
		return func() { b.release(got) }
	}}
}
