package robots

import (
	"encoding/binary"
	"strings"
	"sync"
)

// orderMemo remembers the order of the last few lists of records with
// many names that plan ordered. A tenant's policy is planned twice, once
// for its findings (validate) and once to be written (generate), and with
// a preset's hundred names, finding the order is most of planning. plan's
// records are ranked by their position, so their order depends on their
// names alone: it is kept by the list of lower-cased names, in a bounded
// number of entries, the oldest dropped first.
//
// A memo belongs to a NameSet (NameSet.order), which its maker shares
// among the policies that name its names, such as every policy of a build
// whose groups name presets: the set's owner decides how long the orders
// are kept, and two sets never share one. The zero orderMemo is empty and
// ready to use.
type orderMemo struct {
	mu     sync.Mutex
	byKey  map[string][]int32
	keys   [orderMemoSize]string
	next   int
	missed int // orders computed, for tests
}

const (
	orderMemoSize = 64 // more than the tenants a build has in flight
	orderMemoMin  = 32 // fewer records are ordered in less than a lookup costs
)

// order is recordOrder(recs, set), remembered when recs is long enough
// and ranked by position.
func (m *orderMemo) order(recs []record, set *NameSet) []int32 {
	if len(recs) < orderMemoMin || !rankedByPosition(recs) {
		return recordOrder(recs, set)
	}
	key := orderKey(recs)
	m.mu.Lock()
	order, ok := m.byKey[key]
	m.mu.Unlock()
	if ok {
		return order // read only: shared by every caller
	}
	order = recordOrder(recs, set)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.missed++
	if m.byKey == nil {
		m.byKey = make(map[string][]int32, orderMemoSize)
	}
	if _, ok := m.byKey[key]; !ok {
		delete(m.byKey, m.keys[m.next])
		m.keys[m.next] = key
		m.next = (m.next + 1) % orderMemoSize
		m.byKey[key] = order
	}
	return order
}

// order is recordOrder(recs, s), remembered in s's memo when recs is long
// enough and ranked by position. Without a set there is no memo: the order
// is found each time.
func (s *NameSet) order(recs []record) []int32 {
	if s == nil {
		return recordOrder(recs, nil)
	}
	return s.orders.order(recs, s)
}

// rankedByPosition reports whether the records' ranks rise with their
// position, as plan gives them: the order then depends on nothing else
// than the names.
func rankedByPosition(recs []record) bool {
	for i := 1; i < len(recs); i++ {
		if !less(recs[i-1].rank, recs[i].rank) {
			return false
		}
	}
	return true
}

// orderKey is the records' lower-cased names, each after its length, so
// that no two lists share a key.
func orderKey(recs []record) string {
	n := 0
	for _, r := range recs {
		n += len(r.lower[0]) + 2
	}
	var b strings.Builder
	b.Grow(n)
	var l [binary.MaxVarintLen64]byte
	for _, r := range recs {
		b.Write(binary.AppendUvarint(l[:0], uint64(len(r.lower[0]))))
		b.WriteString(r.lower[0])
	}
	return b.String()
}
