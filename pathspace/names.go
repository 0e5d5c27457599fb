package pathspace

import (
	"fmt"
	"slices"
	"strings"
)

// Subdirectories is the file that is always delegated and cannot be
// restricted (seed 000 section 4.2).
const Subdirectories = "subdirectories.txt"

// Registered returns the autodiscovery files seed 000 section 4 defines, in
// the seed's order. The list is the caller's to change.
func Registered() []string { return slices.Clone(registered[:]) }

var registered = [...]string{"index.txt", Subdirectories, "robots.txt", "icons.txt", "description.txt", "feeds.txt"}

// Names is a set of autodisc file names drawn from a universe of every
// possible name: either a finite list, or every name except a finite list.
// The zero Names is empty.
type Names struct {
	all  bool     // the set is every name except list
	list []string // sorted, without duplicates
}

// AllNames is the set of every file name: what the root authority holds.
func AllNames() Names { return Names{all: true} }

// NamesOf is the finite set of the given names.
func NamesOf(names ...string) Names { return Names{list: sortedSet(names)} }

// AllExcept is every name except the given ones.
func AllExcept(names ...string) Names { return Names{all: true, list: sortedSet(names)} }

func sortedSet(names []string) []string {
	s := slices.Clone(names)
	slices.Sort(s)
	return slices.Compact(s)
}

// Has reports whether name is in n.
func (n Names) Has(name string) bool {
	_, found := slices.BinarySearch(n.list, name)
	return found != n.all
}

// Finite reports whether n is a finite list, which [Names.List] then returns.
func (n Names) Finite() bool { return !n.all }

// List returns the names of a finite set, or the names a co-finite set
// leaves out, sorted.
func (n Names) List() []string { return slices.Clone(n.list) }

// Equal reports whether n and m are the same set.
func (n Names) Equal(m Names) bool { return n.all == m.all && slices.Equal(n.list, m.list) }

// String describes n: "every file", "every file except robots.txt",
// "feeds.txt icons.txt" or "no file".
func (n Names) String() string {
	switch {
	case n.all && len(n.list) == 0:
		return "every file"
	case n.all:
		return "every file except " + strings.Join(n.list, " ")
	case len(n.list) == 0:
		return "no file"
	}
	return strings.Join(n.list, " ")
}

// intersect returns n ∩ m.
func (n Names) intersect(m Names) Names {
	switch {
	case n.all && m.all:
		return Names{all: true, list: union(n.list, m.list)}
	case n.all:
		return Names{list: minus(m.list, n.list)}
	case m.all:
		return Names{list: minus(n.list, m.list)}
	}
	return Names{list: minus(n.list, minus(n.list, m.list))}
}

// add returns n ∪ {name}.
func (n Names) add(name string) Names {
	if n.Has(name) {
		return n
	}
	if n.all {
		return Names{all: true, list: minus(n.list, []string{name})}
	}
	return Names{list: union(n.list, []string{name})}
}

func union(a, b []string) []string {
	return sortedSet(append(slices.Clone(a), b...))
}

// minus returns the sorted a without the members of the sorted b.
func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if _, found := slices.BinarySearch(b, s); !found {
			out = append(out, s)
		}
	}
	return out
}

// Grant is how a delegation hands files over (seed 000 section 4.2): with
// Only, just the listed files; with Except, every file but the listed ones,
// whose values stay the delegator's; with neither, every file.
// subdirectories.txt is always delegated.
type Grant struct {
	Only   []string // nil means no only list; an empty list delegates no file but subdirectories.txt
	Except []string
}

// names returns the set of files g hands over, before the delegator's own
// limits.
func (g Grant) names() Names {
	switch {
	case g.Only != nil:
		return NamesOf(g.Only...)
	default:
		return AllExcept(g.Except...)
	}
}

// Granted returns the files a delegatee has authority for: those its
// delegator holds (parent) and g hands over, and always subdirectories.txt.
// A delegator can hand over only what it holds (seed 000 section 4.2), so a
// name in an only list that parent lacks is not granted; [CheckGrant]
// reports it.
func Granted(parent Names, g Grant) Names {
	return parent.intersect(g.names()).add(Subdirectories)
}

// GrantError is a delegation's only or except list that cannot stand.
type GrantError struct {
	Name string // the file name at fault, or "" when the lists as a whole are
	Msg  string
}

func (e *GrantError) Error() string { return e.Msg }

// CheckGrant reports what is wrong with g as given by a delegator holding
// parent: both lists at once, subdirectories.txt in an except list (design
// section 4), and names in an only list that the delegator has no authority
// for. The errors come in list order.
func CheckGrant(parent Names, g Grant) []error {
	var errs []error
	if g.Only != nil && g.Except != nil {
		errs = append(errs, &GrantError{Msg: "only and except cannot both be given"})
	}
	for _, name := range g.Except {
		if name == Subdirectories {
			errs = append(errs, &GrantError{Name: name, Msg: fmt.Sprintf("%s is always delegated and cannot be excepted", name)})
		}
	}
	for _, name := range g.Only {
		if !parent.Has(name) {
			errs = append(errs, &GrantError{Name: name, Msg: fmt.Sprintf("%s cannot be delegated: the delegator has no authority for it (it holds %v)", name, parent)})
		}
	}
	return errs
}
