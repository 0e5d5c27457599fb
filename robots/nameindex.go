package robots

// Which agent names are part of which: the order of records (a name's
// record before those of the names containing it) and R026 both ask it of
// every pair of names, which compared pair by pair is quadratic (40,000
// names took minutes). nameIndex answers it with an Aho-Corasick automaton
// over all the names: reading one name through it finds every other name
// inside it, in time linear in the name plus the names found.

// nameIndex is an Aho-Corasick automaton over a list of distinct names.
type nameIndex struct {
	// The trie, one entry per node; node 0 is the root.
	child []int32 // first child, or -1
	next  []int32 // next sibling, or -1
	label []byte  // the byte on the edge from the parent
	fail  []int32 // the longest proper suffix that is a node
	dict  []int32 // the nearest node down the fail links that ends a name, or -1
	name  []int32 // the name this node ends, or -1
	// seen marks the names found for the name being read (stamp).
	seen  []int32
	stamp int32
}

func (x *nameIndex) add() int32 {
	x.child = append(x.child, -1)
	x.next = append(x.next, -1)
	x.label = append(x.label, 0)
	x.fail = append(x.fail, 0)
	x.dict = append(x.dict, -1)
	x.name = append(x.name, -1)
	return int32(len(x.child) - 1)
}

// step is the child of node n by c, or -1.
func (x *nameIndex) step(n int32, c byte) int32 {
	for k := x.child[n]; k >= 0; k = x.next[k] {
		if x.label[k] == c {
			return k
		}
	}
	return -1
}

// newNameIndex builds the automaton over names, which must be distinct.
func newNameIndex(names []string) *nameIndex {
	x := &nameIndex{seen: make([]int32, len(names))}
	x.add()
	for i, s := range names {
		n := int32(0)
		for j := 0; j < len(s); j++ {
			k := x.step(n, s[j])
			if k < 0 {
				k = x.add()
				x.label[k] = s[j]
				x.next[k] = x.child[n]
				x.child[n] = k
			}
			n = k
		}
		x.name[n] = int32(i)
	}
	// Breadth first: a node's fail link is found from its parent's.
	queue := []int32{}
	for k := x.child[0]; k >= 0; k = x.next[k] {
		queue = append(queue, k)
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for k := x.child[n]; k >= 0; k = x.next[k] {
			f := x.fail[n]
			for {
				if t := x.step(f, x.label[k]); t >= 0 && t != k {
					x.fail[k] = t
					break
				}
				if f == 0 {
					x.fail[k] = 0
					break
				}
				f = x.fail[f]
			}
			if fk := x.fail[k]; x.name[fk] >= 0 {
				x.dict[k] = fk
			} else {
				x.dict[k] = x.dict[fk]
			}
			queue = append(queue, k)
		}
	}
	return x
}

// feed moves from node n by c, following fail links.
func (x *nameIndex) feed(n int32, c byte) int32 {
	for {
		if k := x.step(n, c); k >= 0 {
			return k
		}
		if n == 0 {
			return 0
		}
		n = x.fail[n]
	}
}

// inside calls f with every name that is part of s (s itself left out),
// once each, in no particular order. It costs the length of s plus the
// names found.
func (x *nameIndex) inside(s string, self int, f func(j int)) {
	x.stamp++
	n := int32(0)
	for i := 0; i < len(s); i++ {
		n = x.feed(n, s[i])
		o := n
		if x.name[o] < 0 {
			o = x.dict[o]
		}
		// Every name down the dictionary links from o was found from
		// the first of them already: stop at a name seen.
		for ; o >= 0 && x.seen[x.name[o]] != x.stamp; o = x.dict[o] {
			x.seen[x.name[o]] = x.stamp
			if j := int(x.name[o]); j != self {
				f(j)
			}
		}
	}
}

// covers calls f with names whose "is part of" pairs, closed under
// transitivity, give every name that is part of s: at each end position
// in s, the longest name ending there other than s itself. It costs the
// length of s, and finds at most that many names.
func (x *nameIndex) covers(s string, self int, f func(j int)) {
	x.stamp++
	n := int32(0)
	for i := 0; i < len(s); i++ {
		n = x.feed(n, s[i])
		o := n
		if x.name[o] < 0 || int(x.name[o]) == self {
			o = x.dict[o]
		}
		if o >= 0 && x.seen[x.name[o]] != x.stamp {
			x.seen[x.name[o]] = x.stamp
			f(int(x.name[o]))
		}
	}
}
