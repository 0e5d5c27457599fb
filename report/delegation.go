package report

import (
	"net/url"
	"slices"
	"strings"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/tree"
)

// Node is an authority in the delegation tree.
type Node struct {
	Space       string
	Kind        string // site, inline, tenant, delegation
	Grant       string // only/except as written
	Description string
	Files       []string
	Manifest    string
	Children    []*Node
	// Groups, for a delegation with more than listTenants tenants, holds
	// them in runs of groupTenants (Children is then empty), each folded
	// on the page, so that a host's thousands of users do not bury the
	// site's own authorities.
	Groups []Group
	// Tenants counts the tenants under a delegation.
	Tenants int
}

// Group is a run of tenants of one delegation, labelled by its first and
// last space.
type Group struct {
	Label string
	Nodes []*Node
}

// Past listTenants tenants under one delegation, the page folds them in
// groups of groupTenants and sums their files instead of listing each.
const (
	listTenants  = 100
	groupTenants = 500
)

// delegationTree is the site, its delegations with their grants, the
// inline delegatees and the tenants found under each.
func delegationTree(m *manifest.Site, t tree.Tree, tenants []Tenant) *Node {
	root := &Node{Space: "/", Kind: "site", Description: m.Site.Description, Files: autodiscFiles(t, "")}
	addDelegations(root, pathspace.Root(), m.Delegations, t, tenants)
	return root
}

func addDelegations(n *Node, base pathspace.Space, dels []manifest.Delegation, t tree.Tree, tenants []Tenant) {
	for _, d := range dels {
		space, err := pathspace.Parse(base, d.Path)
		if err != nil {
			continue
		}
		c := &Node{Space: space.String(), Kind: "delegation", Grant: grant(d)}
		if d.Inline != nil {
			c.Kind = "inline"
			c.Description = d.Inline.Description
			c.Files = autodiscFiles(t, dirOf(space))
			addDelegations(c, space, d.Inline.Delegations, t, tenants)
		}
		if d.Tenants != "" {
			c.Manifest = d.Tenants
			var found []*Node
			for _, tn := range tenants {
				if pathspace.IsInstance(space, tn.Space) {
					found = append(found, &Node{Space: tn.Space.String(), Kind: "tenant", Manifest: tn.Manifest, Files: autodiscFiles(tn.Tree, "")})
				}
			}
			c.Tenants = len(found)
			if len(found) <= listTenants {
				c.Children = append(c.Children, found...)
			} else {
				for chunk := range slices.Chunk(found, groupTenants) {
					c.Groups = append(c.Groups, Group{Label: chunk[0].Space + " … " + chunk[len(chunk)-1].Space, Nodes: chunk})
				}
			}
		}
		n.Children = append(n.Children, c)
	}
}

func grant(d manifest.Delegation) string {
	switch {
	case d.Only != nil:
		return "only " + strings.Join(d.Only, ", ")
	case d.Except != nil:
		return "all except " + strings.Join(d.Except, ", ")
	}
	return "all files"
}

// autodiscFiles lists the files of dir/autodisc in t.
func autodiscFiles(t tree.Tree, dir string) []string {
	prefix := "autodisc/"
	if dir != "" {
		prefix = dir + "/autodisc/"
	}
	var out []string
	for _, p := range t.Paths() {
		if rest, ok := strings.CutPrefix(p, prefix); ok && !strings.Contains(rest, "/") {
			out = append(out, rest)
		}
	}
	return out
}

func dirOf(s pathspace.Space) string {
	segs := s.Segments()
	for i, seg := range segs {
		if u, err := url.PathUnescape(seg); err == nil {
			segs[i] = u
		}
	}
	return strings.Join(segs, "/")
}
