package validate

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/discgen/discgen/internal/editdist"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
)

// The autodisc files seed 000 section 4 registers.
const (
	IndexTxt          = "index.txt"
	SubdirectoriesTxt = "subdirectories.txt"
	RobotsTxt         = "robots.txt"
	IconsTxt          = "icons.txt"
	DescriptionTxt    = "description.txt"
	FeedsTxt          = "feeds.txt"
)

// Limits on one authority's list of delegations. Literal spaces are
// checked for intersection in O(n log n); each space with a wildcard is
// compared with every other, so those are held to fewer.
const (
	MaxDelegations         = manifest.MaxDelegations
	MaxWildcardDelegations = 256
)

// FileSet is a set of autodisc file names: either the names listed, or
// every name but those listed.
type FileSet struct {
	except bool
	names  map[string]bool
}

// AllFiles is the set of every autodisc file: what the root authority has.
func AllFiles() FileSet { return FileSet{except: true} }

// Has reports whether name is in the set. subdirectories.txt always is:
// authority for it is always delegated (seed 000 section 4.2).
func (s FileSet) Has(name string) bool {
	if name == SubdirectoriesTxt {
		return true
	}
	return s.names[name] != s.except
}

// Grant is what a delegation with the given only or except list hands on
// from a delegator holding parent. With only, exactly the listed files the
// delegator holds; with except, the delegator's files minus the listed;
// with neither, all the delegator's files.
func Grant(parent FileSet, only, except []string) FileSet {
	switch {
	case len(only) > 0:
		out := FileSet{names: map[string]bool{}}
		for _, n := range only {
			if parent.Has(n) {
				out.names[n] = true
			}
		}
		return out
	case parent.except:
		out := FileSet{except: true, names: maps.Clone(parent.names)}
		if out.names == nil {
			out.names = map[string]bool{}
		}
		for _, n := range except {
			out.names[n] = true
		}
		return out
	default:
		out := FileSet{names: maps.Clone(parent.names)}
		for _, n := range except {
			delete(out.names, n)
		}
		return out
	}
}

// String lists the set for messages.
func (s FileSet) String() string {
	names := slices.Sorted(maps.Keys(s.names))
	if s.except {
		if len(names) == 0 {
			return "every file"
		}
		return "every file but " + strings.Join(names, ", ")
	}
	if !s.names[SubdirectoriesTxt] {
		names = append(names, SubdirectoriesTxt)
		slices.Sort(names)
	}
	return strings.Join(names, ", ")
}

// holds describes the set after "holds": "only feeds.txt, subdirectories.txt"
// or "every file but robots.txt".
func (s FileSet) holds() string {
	if s.except {
		return s.String()
	}
	return "only " + s.String()
}

// delegatable reports whether name can appear in only or except.
func (v *checker) delegatable(p, name string, except bool) bool {
	switch {
	case name == IndexTxt:
		v.err(p, "index.txt lists each autodisc directory's own files; it is not delegated")
	case name == SubdirectoriesTxt && except:
		v.err(p, "subdirectories.txt is always delegated and cannot be excepted (seed 000 section 4.2)")
	case name == SubdirectoriesTxt, name == RobotsTxt, name == IconsTxt, name == DescriptionTxt, name == FeedsTxt, xName.MatchString(name):
		return true
	default:
		msg := fmt.Sprintf("%q is not an autodisc file (robots.txt, icons.txt, description.txt, feeds.txt, subdirectories.txt or x-NAME)", name)
		if s := editdist.Closest(name, []string{RobotsTxt, IconsTxt, DescriptionTxt, FeedsTxt, SubdirectoriesTxt}); s != "" {
			msg += "; did you mean " + strconv.Quote(s) + "?"
		}
		v.err(p, "%s", msg)
	}
	return false
}

// delegations checks a list of sibling delegations made by the authority
// whose space is base and which holds the files in granted.
func (v *checker) delegations(p string, base pathspace.Space, dels []manifest.Delegation, granted FileSet, site bool) {
	type parsed struct {
		space pathspace.Space
		path  string
	}
	var ok []parsed
	for i, d := range dels {
		dp := manifest.Index(p, i)
		pp := manifest.Key(dp, "path")
		space, err := pathspace.Parse(base, d.Path)
		switch {
		case err != nil:
			v.err(pp, "%v", err)
		case v.tenantDelegation(pp, base, d.Path):
		default:
			ok = append(ok, parsed{space, pp})
		}
		for _, l := range []struct {
			key    string
			names  []string
			except bool
		}{{"only", d.Only, false}, {"except", d.Except, true}} {
			seen := map[string]bool{}
			for j, n := range l.names {
				np := manifest.Index(manifest.Key(dp, l.key), j)
				switch {
				case seen[n]:
					v.err(np, "%q is listed twice", n)
				case !v.delegatable(np, n, l.except):
				case !granted.Has(n):
					v.err(np, "%q cannot be delegated further: %s holds %s", n, base, granted.holds())
				}
				seen[n] = true
			}
		}
		if d.Tenants != "" {
			if !site {
				v.err(manifest.Key(dp, "tenants"), "tenants is allowed only in the site manifest")
			} else if !doublestar.ValidatePattern(d.Tenants) {
				v.err(manifest.Key(dp, "tenants"), "%q is not a valid glob pattern", d.Tenants)
			}
			if d.Inline != nil {
				v.err(manifest.Key(dp, "inline"), "a delegation takes inline or tenants, not both")
			}
		}
		if d.Limits != nil && d.Tenants == "" {
			v.errKey(manifest.Key(dp, "limits"), "limits bounds what the tenants of a delegation write; this delegation has no tenants")
		}
		if d.Inline != nil && err == nil {
			ip := manifest.Key(dp, "inline")
			if !space.Literal() {
				v.err(pp, "%q has a wildcard; an inline delegatee needs a literal path (use tenants for many)", d.Path)
			} else {
				v.delegatee(ip, d.Inline, space, Grant(granted, d.Only, d.Except))
			}
		}
	}
	// Seed 000 section 4.2: delegating into another delegation's space is
	// an error whatever the order. Each delegation is reported once, at
	// the first earlier one it intersects, so that the list stays as
	// long as the manifest's, not its square.
	wild := 0
	for _, x := range ok {
		if !x.space.Literal() {
			wild++
		}
	}
	switch {
	case len(dels) > MaxDelegations:
		v.err(p, "%d delegations; the limit is %d", len(dels), MaxDelegations)
		return
	case wild > MaxWildcardDelegations:
		v.err(p, "%d delegations have a wildcard; the limit is %d (a wildcard is compared with every other delegation)", wild, MaxWildcardDelegations)
		return
	}
	// A space written twice is reported here: CheckSet would pair each
	// copy with every other.
	firstOf := map[pathspace.Space]parsed{}
	var uniq []parsed
	for _, x := range ok {
		if a, dup := firstOf[x.space]; dup {
			v.err(x.path, "%s is delegated twice (first by %s at %s)", x.space, a.path, v.pos.Of(a.path))
			continue
		}
		firstOf[x.space] = x
		uniq = append(uniq, x)
	}
	ok = uniq
	conflicts := pathspace.CheckSet(spacesOf(ok, func(x parsed) pathspace.Space { return x.space }))
	more := map[int]int{}
	for _, c := range conflicts {
		more[c.J]++
	}
	for _, c := range conflicts {
		n := more[c.J]
		if n == 0 {
			continue // reported
		}
		more[c.J] = 0
		a, b := ok[c.I], ok[c.J]
		first := fmt.Sprintf("%s at %s", a.path, v.pos.Of(a.path))
		also := ""
		if n > 1 {
			also = fmt.Sprintf("; it also intersects %d more", n-1)
		}
		switch c.Relation {
		case pathspace.Encloses:
			v.err(b.path, "%s lies inside %s (%s); only the delegatee of %s may delegate within it%s", b.space, a.space, first, a.space, also)
		case pathspace.Inside:
			v.err(b.path, "%s holds %s (%s); delegated spaces cannot intersect%s", b.space, a.space, first, also)
		default:
			v.err(b.path, "%s overlaps %s (%s); delegated spaces cannot intersect%s", b.space, a.space, first, also)
		}
	}
}

func spacesOf[T any](xs []T, f func(T) pathspace.Space) []pathspace.Space {
	out := make([]pathspace.Space, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// delegatee checks what a delegatee defines: only files delegated to it.
func (v *checker) delegatee(p string, d *manifest.Delegatee, space pathspace.Space, granted FileSet) {
	need := func(key, file string, set bool) bool {
		if set && !granted.Has(file) {
			v.errKey(manifest.Key(p, key), "%s is not delegated to %s, which holds %s; remove %s or delegate %s to it", file, space, granted.holds(), key, file)
			return false
		}
		return set
	}
	if need("description", DescriptionTxt, d.Description != "") {
		v.description(manifest.Key(p, "description"), d.Description)
	}
	if need("icons", IconsTxt, len(d.Icons) > 0) {
		v.icons(manifest.Key(p, "icons"), d.Icons)
	}
	if need("feeds", FeedsTxt, len(d.Feeds) > 0) {
		v.feeds(manifest.Key(p, "feeds"), d.Feeds)
	}
	if need("agents", RobotsTxt, len(d.Agents) > 0) {
		ap := manifest.Key(p, "agents")
		v.agents(ap, d.Agents)
		v.tenantRules(ap, d.Agents)
		for i, g := range d.Agents {
			if g.Enforce {
				v.warnKey(manifest.Key(manifest.Index(ap, i), "enforce"), "enforce is ignored here: --server configuration refuses only the agents of the site manifest's own agents groups, not a tenant's or an inline delegatee's; enforce the group in the site manifest's agents")
			}
			if g.Throttle != nil {
				v.warnKey(manifest.Key(manifest.Index(ap, i), "throttle"), "throttle is ignored here: --server configuration slows only the crawlers of the site manifest's own agents groups; throttle the group in the site manifest")
			}
			if g.Verified {
				v.warnKey(manifest.Key(manifest.Index(ap, i), "verified"), "verified is ignored here: --server configuration checks only the crawlers of the site manifest's own agents groups; set verified on a group of the site manifest")
			}
		}
	}
	fp := manifest.Key(p, "files")
	v.files(fp, d.Files)
	for _, name := range slices.Sorted(maps.Keys(d.Files)) {
		if xName.MatchString(name) && !granted.Has(name) {
			v.errKey(manifest.Key(fp, name), "%s is not delegated to %s, which holds %s; remove it or delegate it to %s", name, space, granted.holds(), space)
		}
	}
	v.delegations(manifest.Key(p, "delegations"), space, d.Delegations, granted, false)
}

// tenantPath checks a tenant's declared path: literal, and one of the
// directories the delegation it was found under names (/~alice/ for
// /~*/, not /~alice/blog/): consumers look for a tenant's autodisc
// directory there and nowhere deeper.
func (v *checker) tenantPath(p, raw string, within pathspace.Space) (pathspace.Space, bool) {
	space, err := pathspace.Parse(pathspace.Root(), raw)
	switch {
	case err != nil:
		v.err(p, "%v", err)
	case !space.Literal():
		v.err(p, "%q has a wildcard; a tenant's path names its own directory, such as /~alice/", raw)
	case within.Literal() && space != within:
		v.err(p, "%s is not this tenant's space: the directory its manifest was found in makes it %s (path may be left out)", space, within)
	case !pathspace.Within(within, space):
		v.err(p, "%s is outside the space %s delegated to this tenant", space, within)
	case !pathspace.IsInstance(within, space):
		v.err(p, "%s is below the directory the delegation %s names; a tenant's path is that directory itself (such as %s)", space, within, instanceHint(within, space))
	default:
		return space, true
	}
	return space, false
}

// instanceHint is the directory of pattern that holds s, for messages.
func instanceHint(pattern, s pathspace.Space) string {
	segs := s.Segments()
	if n := pattern.Depth(); n <= len(segs) {
		segs = segs[:n]
	}
	return "/" + strings.Join(segs, "/") + "/"
}
