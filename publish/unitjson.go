package publish

import (
	"errors"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/output"
)

// UnitJSON is a unit as discgen build --format json writes it, one per
// element of "outputs".
type UnitJSON struct {
	Kind        string      `json:"kind"`
	Manifest    string      `json:"manifest,omitempty"`
	Directory   string      `json:"directory"`
	Space       string      `json:"space,omitempty"`
	Status      string      `json:"status"`
	Added       int         `json:"added"`
	Updated     int         `json:"updated"`
	Removed     int         `json:"removed"`
	Adopted     int         `json:"adopted"`
	Problems    []string    `json:"problems,omitempty"`
	Notes       []string    `json:"notes,omitempty"`
	Diagnostics []diag.JSON `json:"diagnostics"`
}

// JSON returns the unit's JSON form. The counts are what Apply did in
// Write mode, or what the plan would do in Check and DryRun modes; an
// adopted file (already the bytes discgen writes, taken over without
// writing it) counts as adopted, not added, as in the text summary.
func (u *Unit) JSON() UnitJSON {
	j := UnitJSON{Kind: u.Kind.String(), Manifest: u.Manifest, Directory: u.Dir, Space: u.Space,
		Status: u.StatusText(), Notes: u.Notes, Diagnostics: u.Diags.JSON()}
	r := u.Result
	j.Added, j.Updated, j.Removed, j.Adopted = r.Added, r.Updated, r.Removed, r.Adopted
	if ch := u.Changes; ch != nil {
		for _, c := range ch.List {
			switch c.Kind {
			case output.Add:
				j.Added++
			case output.Adopt:
				j.Adopted++
			case output.Update:
				j.Updated++
			case output.Remove:
				j.Removed++
			}
		}
	}
	var pe *output.ProblemError
	if errors.As(u.Problem, &pe) {
		for _, pr := range pe.Problems {
			j.Problems = append(j.Problems, pr.String())
		}
	} else if u.Problem != nil {
		j.Problems = append(j.Problems, u.Problem.Error())
	}
	return j
}
