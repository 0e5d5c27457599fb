package pathspace

import "slices"

// Authority is an autodisc directory with authority for a space: the root
// (Space [Root]), an inline delegatee or a tenant.
type Authority struct {
	Space       Space
	Files       []string      // the autodisc files it defines
	Delegations []*Delegation // the delegations of its subdirectories.txt
}

// Defines reports whether a defines the file name.
func (a *Authority) Defines(name string) bool {
	return a != nil && slices.Contains(a.Files, name)
}

// Delegation is one line of a subdirectories.txt: a space below its
// delegator, possibly with wildcards, how files are handed over, and the
// authorities found for it. A literal delegation has at most one delegatee;
// a wildcard one such as "/~*/" has one per tenant, each with a literal
// space within the delegation's.
type Delegation struct {
	Space      Space
	Grant      Grant
	Delegatees []*Authority
}

// Step is one level of a [Resolution]. Authority is nil when the path lies
// in a delegation for which no delegatee was found: the files handed over
// are then undefined (seed 000 section 4.2: settings delegated to a
// delegatee that is not consulted are undefined).
type Step struct {
	Delegation *Delegation // nil for the root step
	Authority  *Authority
	Granted    Names // the files this step has authority for
}

// Source says where a file's value comes from at a path.
type Source struct {
	// Step indexes the Chain step whose authority governs the file, or is -1
	// when none does: an only list on the way left the file out.
	Step int
	// Defined reports whether that step's authority defines the file. A
	// governed file that its authority does not define is undefined.
	Defined bool
}

// Resolution is the answer to `discgen resolve PATH` (design section 4).
type Resolution struct {
	Path  string // the URL path asked about
	Chain []Step // from the root down to the deepest space holding Path
	// Files maps every registered file name, every name an authority on the
	// chain defines and every name a grant on the chain mentions to its
	// source.
	Files map[string]Source
}

// Resolve finds, for the URL path p, the chain of authorities from root down
// to the deepest one whose space holds p, and the source of each file.
//
// At each authority the delegation whose space holds p is followed; if
// sibling delegations overlap, which [CheckSet] reports, the first in order
// wins. The source of a file at the deepest step follows seed 000 section
// 4.2: a step governs the files granted to it; a file its grant excepts, or
// that its delegator did not hold, resolves at the delegator, recursively;
// a file an only list leaves out is undefined. subdirectories.txt is always
// governed by the deepest step.
func Resolve(root *Authority, p string) Resolution {
	r := Resolution{Path: p}
	r.Chain = append(r.Chain, Step{Authority: root, Granted: AllNames()})
	canon, ok := canonicalURLPath(p)
	for a := root; ok && a != nil; {
		var next *Delegation
		for _, d := range a.Delegations {
			if d.Space.containsCanonical(canon) {
				next = d
				break
			}
		}
		if next == nil {
			break
		}
		var delegatee *Authority
		for _, t := range next.Delegatees {
			if t.Space.containsCanonical(canon) {
				delegatee = t
				break
			}
		}
		granted := Granted(r.Chain[len(r.Chain)-1].Granted, next.Grant)
		r.Chain = append(r.Chain, Step{Delegation: next, Authority: delegatee, Granted: granted})
		a = delegatee
	}

	names := map[string]bool{}
	for _, n := range registered {
		names[n] = true
	}
	for _, st := range r.Chain {
		if st.Authority != nil {
			for _, n := range st.Authority.Files {
				names[n] = true
			}
		}
		if st.Delegation != nil {
			for _, n := range st.Delegation.Grant.Only {
				names[n] = true
			}
			for _, n := range st.Delegation.Grant.Except {
				names[n] = true
			}
		}
	}
	r.Files = make(map[string]Source, len(names))
	for n := range names {
		r.Files[n] = r.Source(n)
	}
	return r
}

// Source returns where the file name's value comes from at r.Path, for any
// name, listed in r.Files or not.
func (r Resolution) Source(name string) Source {
	for i := len(r.Chain) - 1; i >= 0; i-- {
		st := r.Chain[i]
		if st.Granted.Has(name) {
			return Source{Step: i, Defined: st.Authority.Defines(name)}
		}
		if g := st.Delegation.Grant; g.Only != nil && !slices.Contains(g.Only, name) {
			return Source{Step: -1}
		}
	}
	return Source{Step: -1} // unreachable: the root holds every name
}

// Governor returns the authority whose value of name applies at r.Path, or
// nil when the file is undefined there.
func (r Resolution) Governor(name string) *Authority {
	s := r.Source(name)
	if s.Step < 0 || !s.Defined {
		return nil
	}
	return r.Chain[s.Step].Authority
}
