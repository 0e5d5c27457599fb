package manifest

import (
	"strconv"
	"strings"

	"github.com/discgen/discgen/diag"
)

// Positions maps manifest paths (agents[2].names[0]) to where their values
// and keys stand in the source file.
//
// It is a tree with one entry per value, the shape of the manifest with
// its aliases expanded: an entry holds its own step (a key or an index),
// never its whole path, so positions cost memory in proportion to the
// manifest however long its keys and however deep its nesting. A path is
// looked up step by step.
type Positions struct {
	File string
	root *entry
	// blocks holds where the content of each literal block scalar
	// starts (see blockpos.go); nil when there is none.
	blocks map[*entry]lineCol
}

// entry is the position record of one value.
type entry struct {
	parent *entry
	key    string // the key that leads here from parent, or ""
	index  int    // the index that leads here from parent, or -1
	val    lineCol
	keyPos lineCol // where the key stands; zero for list items and the root
	// kids are the entries of the keys or items below, items in
	// increasing index order. A list item that is a scalar has no entry:
	// its position is in items, which keeps a long list small.
	kids  []*entry
	items []lineCol
	byKey map[string]*entry // for mappings with many keys
}

type lineCol struct{ line, col int32 }

// manyKeys is the number of keys from which a mapping's entries are
// found through a map rather than by a scan.
const manyKeys = 16

func newPositions(file string) *Positions {
	return &Positions{File: file, root: &entry{index: -1}}
}

func (p *Positions) pos(lc lineCol) diag.Pos {
	return diag.Pos{File: p.File, Line: int(lc.line), Col: int(lc.col)}
}

func at(line, col int) lineCol { return lineCol{int32(line), int32(col)} }

// child returns the entry of key under e, or nil.
func (e *entry) child(key string) *entry {
	if e.byKey != nil {
		return e.byKey[key]
	}
	for _, k := range e.kids {
		if k.index < 0 && k.key == key {
			return k
		}
	}
	return nil
}

// keyEntry returns the entry of key under e, adding it if need be; it
// reports whether it was there.
func (e *entry) keyEntry(key string) (*entry, bool) {
	if c := e.child(key); c != nil {
		return c, true
	}
	c := &entry{parent: e, key: key, index: -1}
	e.kids = append(e.kids, c)
	if e.byKey != nil {
		e.byKey[key] = c
	} else if len(e.kids) > manyKeys {
		e.byKey = make(map[string]*entry, len(e.kids))
		for _, k := range e.kids {
			e.byKey[k.key] = k
		}
	}
	return c, false
}

// item returns the entry of index i under e, adding it if need be.
// Items are added in increasing order.
func (e *entry) item(i int) *entry {
	if c := e.itemAt(i); c != nil {
		return c
	}
	c := &entry{parent: e, index: i}
	e.kids = append(e.kids, c)
	return c
}

// scalarItem records the position of item i of a list, a scalar.
func (e *entry) scalarItem(i int, lc lineCol) {
	if e.items == nil {
		e.items = make([]lineCol, 0, 4)
	}
	for len(e.items) <= i {
		e.items = append(e.items, lineCol{})
	}
	if e.items[i].line == 0 {
		e.items[i] = lc
	}
}

// itemAt returns the entry of index i under e, or nil.
func (e *entry) itemAt(i int) *entry {
	k := e.kids
	if i >= 0 && i < len(k) && k[i].index == i {
		return k[i]
	}
	lo, hi := 0, len(k)
	for lo < hi {
		m := (lo + hi) / 2
		if k[m].index < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(k) && k[lo].index == i {
		return k[lo]
	}
	return nil
}

// path writes the manifest path of e, as Key and Index do.
func (e *entry) path() string {
	if e == nil || e.parent == nil {
		return ""
	}
	var steps []*entry
	for x := e; x.parent != nil; x = x.parent {
		steps = append(steps, x)
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		if s.index >= 0 {
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		} else {
			writeKey(&b, s.key)
		}
	}
	return b.String()
}

// find walks path from the root as far as the tree has entries. It
// returns the position of the last value reached, the position of its key
// when the whole path was reached, and whether it was.
func (p *Positions) find(path string) (val, key lineCol, whole bool) {
	val, key, whole, _ = p.locate(path)
	return val, key, whole
}

// locate is find that also returns the entry the whole path reached, or
// nil (a scalar list item has none).
func (p *Positions) locate(path string) (val, key lineCol, whole bool, last *entry) {
	e := p.root
	val = e.val
	for i := 0; i < len(path); {
		var next *entry
		switch {
		case path[i] == '[' && i+1 < len(path) && path[i+1] == '"':
			// A quoted key: find its closing quote, skipping escapes.
			j := i + 2
			for j < len(path) && path[j] != '"' {
				if path[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(path) {
				return val, key, false, nil
			}
			k, err := strconv.Unquote(path[i+1 : j+1])
			if err != nil {
				return val, key, false, nil
			}
			next = e.child(k)
			i = j + 2 // past the quote and "]"
		case path[i] == '[':
			j := strings.IndexByte(path[i:], ']')
			if j < 0 {
				return val, key, false, nil
			}
			n, err := strconv.Atoi(path[i+1 : i+j])
			if err != nil {
				return val, key, false, nil
			}
			i += j + 1
			next = e.itemAt(n)
			if next == nil && n >= 0 && n < len(e.items) && e.items[n].line != 0 {
				// A scalar item: nothing lies below it.
				return e.items[n], lineCol{}, i == len(path), nil
			}
		default:
			if path[i] == '.' {
				i++
			}
			j := i
			for j < len(path) && path[j] != '.' && path[j] != '[' {
				j++
			}
			next = e.child(path[i:j])
			i = j
		}
		if next == nil {
			return val, key, false, nil
		}
		e = next
		if e.val.line != 0 {
			val = e.val
		}
	}
	return val, e.keyPos, true, e
}

// Of returns the position of the value at path, or of its nearest
// ancestor that has one, or the bare file.
func (p *Positions) Of(path string) diag.Pos {
	val, _, _ := p.find(path)
	if val.line == 0 {
		return diag.Pos{File: p.File}
	}
	return p.pos(val)
}

// KeyOf returns the position of the key that introduces path, falling back
// to the value's position.
func (p *Positions) KeyOf(path string) diag.Pos {
	if _, key, whole := p.find(path); whole && key.line != 0 {
		return p.pos(key)
	}
	return p.Of(path)
}

// overlay returns positions whose top-level entries are p's, except for
// the keys given, which take the entries in repl: an environment's
// values, found under its block, stand in for the keys they replace.
func (p *Positions) overlay(repl *entry, keys []string) *Positions {
	root := &entry{index: -1, val: p.root.val}
	root.kids = append(root.kids, p.root.kids...)
	if len(root.kids) > manyKeys {
		root.byKey = map[string]*entry{}
		for _, k := range root.kids {
			root.byKey[k.key] = k
		}
	}
	for _, key := range keys {
		c := repl.child(key)
		if c == nil {
			continue
		}
		replaced := false
		for i, k := range root.kids {
			if k.key == key {
				root.kids[i] = c
				replaced = true
			}
		}
		if !replaced {
			root.kids = append(root.kids, c)
		}
		if root.byKey != nil {
			root.byKey[key] = c
		} else if len(root.kids) > manyKeys {
			root.byKey = map[string]*entry{}
			for _, k := range root.kids {
				root.byKey[k.key] = k
			}
		}
	}
	return &Positions{File: p.File, root: root, blocks: p.blocks}
}
