package publish

import "github.com/discgen/discgen/diag"

// A panic is a bug in discgen, never the tenant's doing; but a tenant's
// manifest may be what reaches it, and one tenant must not stop the
// others. So every goroutine of the pipeline that works for tenants (the
// workers, the batchers) recovers a panic, refuses the tenants it was
// working for with a message that says it is a bug and where it
// happened, and goes on with the next.

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
