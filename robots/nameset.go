package robots

import "strings"

// NameSet is a fixed set of agent names that many policies share, such as
// a crawler catalogue's, indexed once. A policy that gives it (Policy.Names)
// has the "is part of" relations among its names found with the set's
// automaton and its precomputed pairs for the names in the set, and with an
// automaton over the other names only, built per policy: the cost per
// policy is then one pass over its names and an index of the names it adds
// to the set's, not an index of all its names. The set also remembers the
// order of the records of the last policies it planned, which a tenant's
// validation and rendering both ask for. The results are the same as
// without the set.
type NameSet struct {
	names  []string         // lower-cased, distinct, none empty
	id     map[string]int32 // lower-cased name -> index into names
	lower  map[string]string
	x      *nameIndex // over names; read only once built (its seen marks are dropped)
	inside [][]int32  // for each name, the other names of the set inside it
	// For each name and each position in it, the other names of the set
	// ending there, longest first, as ends finds them: covers reads them
	// for a record whose name is in the set instead of running the
	// automaton over its name. Name i's positions are endPos[endOff[i]:]
	// (one more than its length), each an index into endName.
	endOff  []int32
	endPos  []int32
	endName []int32
	// orders remembers the orders plan found for the policies that give
	// the set (ordermemo.go): the one part of a set written after
	// NewNameSet, under its own lock.
	orders orderMemo
}

// NewNameSet indexes names (compared case-insensitively; repeats and
// empty names are left out).
func NewNameSet(names []string) *NameSet {
	s := &NameSet{id: map[string]int32{}, lower: map[string]string{}}
	for _, n := range names {
		k := strings.ToLower(n)
		if k != "" {
			s.lower[n] = k
		}
		if _, ok := s.id[k]; ok || k == "" {
			continue
		}
		s.id[k] = int32(len(s.names))
		s.names = append(s.names, k)
	}
	s.x = newNameIndex(s.names)
	s.inside = make([][]int32, len(s.names))
	s.endOff = make([]int32, len(s.names))
	for i, n := range s.names {
		s.x.inside(n, i, func(j int) { s.inside[i] = append(s.inside[i], int32(j)) })
		s.endOff[i] = int32(len(s.endPos))
		s.ends(n, func(end, j int) bool {
			for int(end) >= len(s.endPos)-int(s.endOff[i]) {
				s.endPos = append(s.endPos, int32(len(s.endName)))
			}
			if j != i {
				s.endName = append(s.endName, int32(j))
			}
			return true
		})
		for len(s.endPos)-int(s.endOff[i]) <= len(n) {
			s.endPos = append(s.endPos, int32(len(s.endName)))
		}
	}
	s.x.seen = nil // shared by policies built concurrently: never written again
	return s
}

// toLower is strings.ToLower(name), without a new string for a name
// given to the set as it is written.
func (s *NameSet) toLower(name string) string {
	if s != nil {
		if k, ok := s.lower[name]; ok {
			return k
		}
	}
	return strings.ToLower(name)
}

// ends calls f with every name of the set ending at each position of s, the
// longest first at each position, until f returns false for a position.
func (s *NameSet) ends(str string, f func(end, name int) bool) {
	x := s.x
	n := int32(0)
	for i := 0; i < len(str); i++ {
		n = x.feed(n, str[i])
		o := n
		if x.name[o] < 0 {
			o = x.dict[o]
		}
		for ; o >= 0; o = x.dict[o] {
			if !f(i, int(x.name[o])) {
				break
			}
		}
	}
}

// recordNames answers "which names are part of which" about the distinct
// names of a policy's records, with the NameSet the policy gives.
type recordNames struct {
	names []string // per record, lower-cased; "" for a record left out
	set   *NameSet
	setID []int32 // per record, its name's index in set, or -1
	inSet []int32 // per name of set, the record of that name, or -1
	extra *nameIndex
	xrec  []int32 // per name of extra, its record
	xid   []int32 // per record, its index in extra, or -1
	seen  []int32 // per record (stamp)
	stamp int32
	best  []int32 // covers' scratch
}

// newRecordNames indexes names, which are distinct; "" marks a record that
// is never part of a name nor holds one.
func newRecordNames(names []string, set *NameSet) *recordNames {
	pn := &recordNames{names: names, set: set, seen: make([]int32, len(names)),
		setID: make([]int32, len(names)), xid: make([]int32, len(names))}
	var extra []string
	pn.inSet = make([]int32, len(set.names))
	for i := range pn.inSet {
		pn.inSet[i] = -1
	}
	for r, n := range names {
		pn.setID[r], pn.xid[r] = -1, -1
		if n == "" {
			continue
		}
		if id, ok := set.id[n]; ok {
			pn.setID[r] = id
			pn.inSet[id] = int32(r)
			continue
		}
		pn.xid[r] = int32(len(extra))
		pn.xrec = append(pn.xrec, int32(r))
		extra = append(extra, n)
	}
	if len(extra) > 0 {
		pn.extra = newNameIndex(extra)
	}
	return pn
}

// inside calls f with every record whose name is part of record r's name
// (r left out), once each, in no particular order.
func (pn *recordNames) inside(r int, f func(i int)) {
	s := pn.names[r]
	if s == "" {
		return
	}
	if pn.extra != nil {
		pn.extra.inside(s, int(pn.xid[r]), func(j int) { f(int(pn.xrec[j])) })
	}
	if id := pn.setID[r]; id >= 0 {
		for _, j := range pn.set.inside[id] {
			if i := pn.inSet[j]; i >= 0 {
				f(int(i))
			}
		}
		return
	}
	pn.stamp++
	pn.set.ends(s, func(_, j int) bool {
		if i := pn.inSet[j]; i >= 0 && pn.seen[i] != pn.stamp {
			pn.seen[i] = pn.stamp
			f(int(i))
		}
		return true
	})
}

// covers calls f as nameIndex.covers does over all the records' names: at
// each end position in record r's name, the record of the longest other
// name ending there, once each.
func (pn *recordNames) covers(r int, f func(i int)) {
	s := pn.names[r]
	if s == "" {
		return
	}
	// The longest name ending at each position: the policy's names of
	// the set (found down the set's dictionary links, the longest first),
	// and the others (found down extra's).
	best := append(pn.best[:0], make([]int32, len(s))...) // record + 1, 0 for none
	pn.best = best
	if id := pn.setID[r]; id >= 0 {
		set := pn.set
		pos := set.endPos[set.endOff[id]:]
		for end := range len(s) {
			for _, j := range set.endName[pos[end]:pos[end+1]] {
				if i := pn.inSet[j]; i >= 0 {
					best[end] = i + 1
					break
				}
			}
		}
	} else {
		pn.set.ends(s, func(end, j int) bool {
			if i := pn.inSet[j]; i >= 0 && int(i) != r {
				best[end] = i + 1
				return false
			}
			return true
		})
	}
	if x := pn.extra; x != nil {
		self := pn.xid[r]
		n := int32(0)
		for end := 0; end < len(s); end++ {
			n = x.feed(n, s[end])
			o := n
			if x.name[o] < 0 || x.name[o] == self {
				o = x.dict[o]
			}
			if o < 0 {
				continue
			}
			i := pn.xrec[x.name[o]]
			if b := best[end]; b == 0 || len(pn.names[b-1]) < len(pn.names[i]) {
				best[end] = i + 1
			}
		}
	}
	pn.stamp++
	for _, b := range best {
		if i := b - 1; i >= 0 && pn.seen[i] != pn.stamp {
			pn.seen[i] = pn.stamp
			f(int(i))
		}
	}
}

// NameSetTables is what NewNameSet computes for a set of names, as plain
// data: a set fixed when discgen is built (the crawler catalogue's names)
// is written as Go source by `go generate` (NewNameSetTables) and made
// at first use by NameSetFromTables, which builds only the set's two
// maps, not its automaton and its pairs.
type NameSetTables struct {
	Given      []string // the names given to NewNameSet, in their order
	GivenLower []string // and lower-cased
	Names      []string
	// The automaton over Names (nameIndex's slices).
	Child, Next, Fail, Dict, Name []int32
	Label                         []byte
	Inside                        [][]int32
	EndOff, EndPos, EndName       []int32
}

// NewNameSetTables indexes names as NewNameSet does, into tables.
func NewNameSetTables(names []string) NameSetTables {
	s := NewNameSet(names)
	x := s.x
	lower := make([]string, len(names))
	for i, n := range names {
		lower[i] = strings.ToLower(n)
	}
	return NameSetTables{Given: names, GivenLower: lower, Names: s.names,
		Child: x.child, Next: x.next, Fail: x.fail, Dict: x.dict, Name: x.name, Label: x.label,
		Inside: s.inside, EndOff: s.endOff, EndPos: s.endPos, EndName: s.endName}
}

// NameSetFromTables is the NameSet of t's names, NewNameSet(t.Given),
// made from the tables NewNameSetTables computed for them. The set shares
// t's slices: nothing may modify t after.
func NameSetFromTables(t *NameSetTables) *NameSet {
	s := &NameSet{names: t.Names, id: make(map[string]int32, len(t.Names)), lower: make(map[string]string, len(t.Given)),
		x:      &nameIndex{child: t.Child, next: t.Next, fail: t.Fail, dict: t.Dict, name: t.Name, label: t.Label},
		inside: t.Inside, endOff: t.EndOff, endPos: t.EndPos, endName: t.EndName}
	for i, k := range t.Names {
		s.id[k] = int32(i)
	}
	for i, n := range t.Given {
		if k := t.GivenLower[i]; k != "" {
			s.lower[n] = k
		}
	}
	return s
}
