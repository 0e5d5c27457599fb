package pathspace

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	tests := []struct {
		n    Names
		str  string
		has  []string
		lack []string
	}{
		{Names{}, "no file", nil, []string{"a", ""}},
		{AllNames(), "every file", []string{"a", "robots.txt", ""}, nil},
		{NamesOf("b", "a", "b"), "a b", []string{"a", "b"}, []string{"c"}},
		{AllExcept("robots.txt", "icons.txt"), "every file except icons.txt robots.txt", []string{"feeds.txt"}, []string{"robots.txt", "icons.txt"}},
	}
	for _, tt := range tests {
		if tt.n.String() != tt.str {
			t.Errorf("String() = %q, want %q", tt.n, tt.str)
		}
		for _, h := range tt.has {
			if !tt.n.Has(h) {
				t.Errorf("%v lacks %q", tt.n, h)
			}
		}
		for _, l := range tt.lack {
			if tt.n.Has(l) {
				t.Errorf("%v has %q", tt.n, l)
			}
		}
	}
	if !NamesOf("a", "b").Equal(NamesOf("b", "a")) || NamesOf("a").Equal(AllExcept("a")) || !AllNames().Equal(AllExcept()) {
		t.Errorf("Equal is wrong")
	}
	if n := AllExcept("x", "y"); n.Finite() || !slices.Equal(n.List(), []string{"x", "y"}) {
		t.Errorf("AllExcept: finite %v, list %q", n.Finite(), n.List())
	}
}

func TestGranted(t *testing.T) {
	const (
		robots = "robots.txt"
		feeds  = "feeds.txt"
		desc   = "description.txt"
		sub    = Subdirectories
	)
	tests := []struct {
		parent Names
		grant  Grant
		want   Names
	}{
		{AllNames(), Grant{}, AllNames()},
		{AllNames(), Grant{Except: []string{robots}}, AllExcept(robots)},
		{AllNames(), Grant{Except: []string{sub, robots}}, AllExcept(robots)},
		{AllNames(), Grant{Only: []string{feeds}}, NamesOf(feeds, sub)},
		{AllNames(), Grant{Only: []string{}}, NamesOf(sub)},
		{AllExcept(robots), Grant{Only: []string{feeds, robots}}, NamesOf(feeds, sub)},
		{AllExcept(robots), Grant{Except: []string{desc}}, AllExcept(desc, robots)},
		{AllExcept(robots), Grant{}, AllExcept(robots)},
		{NamesOf(feeds, sub), Grant{}, NamesOf(feeds, sub)},
		{NamesOf(feeds, desc, sub), Grant{Except: []string{feeds}}, NamesOf(desc, sub)},
		{NamesOf(feeds, desc, sub), Grant{Only: []string{desc, robots}}, NamesOf(desc, sub)},
		{NamesOf(feeds), Grant{}, NamesOf(feeds, sub)},
	}
	for _, tt := range tests {
		if got := Granted(tt.parent, tt.grant); !got.Equal(tt.want) {
			t.Errorf("Granted(%v, %+v) = %v, want %v", tt.parent, tt.grant, got, tt.want)
		}
	}
}

func TestCheckGrant(t *testing.T) {
	tests := []struct {
		parent Names
		grant  Grant
		want   []string
	}{
		{AllNames(), Grant{}, nil},
		{AllNames(), Grant{Only: []string{"feeds.txt"}}, nil},
		{AllNames(), Grant{Only: []string{"a"}, Except: []string{"b"}}, []string{"only and except cannot both be given"}},
		{AllNames(), Grant{Except: []string{"robots.txt", Subdirectories}}, []string{"subdirectories.txt is always delegated and cannot be excepted"}},
		{AllExcept("robots.txt"), Grant{Only: []string{"feeds.txt", "robots.txt"}},
			[]string{"robots.txt cannot be delegated: the delegator has no authority for it (it holds every file except robots.txt)"}},
		{NamesOf("feeds.txt", Subdirectories), Grant{Only: []string{"icons.txt", Subdirectories}},
			[]string{"icons.txt cannot be delegated: the delegator has no authority for it (it holds feeds.txt subdirectories.txt)"}},
	}
	for _, tt := range tests {
		var got []string
		for _, err := range CheckGrant(tt.parent, tt.grant) {
			var ge *GrantError
			if !errors.As(err, &ge) {
				t.Errorf("error %T, want *GrantError", err)
			}
			got = append(got, err.Error())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("CheckGrant(%v, %+v) = %q, want %q", tt.parent, tt.grant, got, tt.want)
		}
	}
}

// authorityTree is the three-level example: the root delegates "~*" except
// robots.txt; alice delegates "blog/" with only feeds.txt, and "priv/" with
// only robots.txt, which she has no authority for; "/projects/" is
// delegated whole; bob has no manifest.
func authorityTree(t *testing.T) (root, alice, blog, priv, projects *Authority) {
	root = &Authority{Space: Root(), Files: []string{"index.txt", "robots.txt", "description.txt", "icons.txt", "feeds.txt", Subdirectories}}
	aliceSpace := mustParse(t, Root(), "/~alice/")
	alice = &Authority{Space: aliceSpace, Files: []string{"description.txt", "feeds.txt", "robots.txt", Subdirectories, "x-contact.txt"}}
	blog = &Authority{Space: mustParse(t, aliceSpace, "blog"), Files: []string{"feeds.txt", "description.txt"}}
	priv = &Authority{Space: mustParse(t, aliceSpace, "priv"), Files: []string{"robots.txt"}}
	projects = &Authority{Space: mustParse(t, Root(), "projects"), Files: []string{"description.txt"}}
	alice.Delegations = []*Delegation{
		{Space: blog.Space, Grant: Grant{Only: []string{"feeds.txt"}}, Delegatees: []*Authority{blog}},
		{Space: priv.Space, Grant: Grant{Only: []string{"robots.txt"}}, Delegatees: []*Authority{priv}},
	}
	root.Delegations = []*Delegation{
		{Space: mustParse(t, Root(), "~*"), Grant: Grant{Except: []string{"robots.txt"}}, Delegatees: []*Authority{alice}},
		{Space: projects.Space, Delegatees: []*Authority{projects}},
	}
	return
}

func TestResolve(t *testing.T) {
	root, alice, blog, priv, projects := authorityTree(t)
	name := map[*Authority]string{root: "root", alice: "alice", blog: "blog", priv: "priv", projects: "projects", nil: "-"}
	type want struct {
		chain string            // authority names, root first
		files map[string]string // file -> "authority" or "undefined"
	}
	const u = "undefined"
	tests := []struct {
		path string
		want want
	}{
		{"/index.html", want{"root", map[string]string{
			"robots.txt": "root", "description.txt": "root", "icons.txt": "root", "feeds.txt": "root",
			"index.txt": "root", Subdirectories: "root"}}},
		{"/~alice", want{"root", map[string]string{"description.txt": "root"}}},
		{"/~alice/notes.html", want{"root alice", map[string]string{
			"robots.txt": "root", "description.txt": "alice", "icons.txt": u, "feeds.txt": "alice",
			"index.txt": u, Subdirectories: "alice", "x-contact.txt": "alice"}}},
		{"/%7Ealice/", want{"root alice", map[string]string{"robots.txt": "root", "description.txt": "alice"}}},
		{"/~alice/blog/2026/post.html", want{"root alice blog", map[string]string{
			"robots.txt": u, "description.txt": u, "icons.txt": u, "feeds.txt": "blog",
			"index.txt": u, Subdirectories: u, "x-contact.txt": u}}},
		{"/~alice/blog/../notes", want{"root alice", map[string]string{"description.txt": "alice"}}},
		{"/%7Ealice/blog/?x", want{"root alice blog", map[string]string{"feeds.txt": "blog", "description.txt": u}}},
		// alice cannot hand robots.txt over: it stays the root's.
		{"/~alice/priv/x", want{"root alice priv", map[string]string{"robots.txt": "root", "feeds.txt": u, "description.txt": u}}},
		{"/~bob/x", want{"root -", map[string]string{
			"robots.txt": "root", "description.txt": u, "icons.txt": u, "feeds.txt": u, Subdirectories: u}}},
		{"/projects/a/b", want{"root projects", map[string]string{
			"robots.txt": u, "description.txt": "projects", "feeds.txt": u, "icons.txt": u}}},
		{"/projectsX/", want{"root", map[string]string{"description.txt": "root"}}},
		{"relative", want{"root", map[string]string{"description.txt": "root"}}},
	}
	for _, tt := range tests {
		r := Resolve(root, tt.path)
		var chain []string
		for _, st := range r.Chain {
			chain = append(chain, name[st.Authority])
		}
		if got := strings.Join(chain, " "); got != tt.want.chain {
			t.Errorf("Resolve(%q) chain %q, want %q", tt.path, got, tt.want.chain)
		}
		for file, w := range tt.want.files {
			got := u
			if g := r.Governor(file); g != nil {
				got = name[g]
			}
			if got != w {
				t.Errorf("Resolve(%q): %s from %s, want %s", tt.path, file, got, w)
			}
			src, ok := r.Files[file]
			if !ok {
				t.Errorf("Resolve(%q).Files lacks %s", tt.path, file)
			}
			if src != r.Source(file) {
				t.Errorf("Resolve(%q).Files[%s] = %+v, Source says %+v", tt.path, file, src, r.Source(file))
			}
		}
		if r.Path != tt.path {
			t.Errorf("Resolution.Path = %q", r.Path)
		}
	}
}

func TestResolveSources(t *testing.T) {
	root, _, _, _, _ := authorityTree(t)
	tests := []struct {
		path, file string
		want       Source
	}{
		// governed by alice, who does not define icons.txt
		{"/~alice/x", "icons.txt", Source{Step: 1, Defined: false}},
		// excepted: resolves at the root
		{"/~alice/x", "robots.txt", Source{Step: 0, Defined: true}},
		// left out by blog's only list: no one governs it
		{"/~alice/blog/", "description.txt", Source{Step: -1}},
		{"/~alice/blog/", "robots.txt", Source{Step: -1}},
		// subdirectories.txt is always delegated, even by an only list
		{"/~alice/blog/", Subdirectories, Source{Step: 2, Defined: false}},
		// a delegation without a delegatee governs what it hands over
		{"/~bob/", "feeds.txt", Source{Step: 1, Defined: false}},
		{"/~bob/", "robots.txt", Source{Step: 0, Defined: true}},
		// a name no one mentions
		{"/~alice/x", "x-other.txt", Source{Step: 1, Defined: false}},
		{"/x", "x-other.txt", Source{Step: 0, Defined: false}},
	}
	for _, tt := range tests {
		r := Resolve(root, tt.path)
		if got := r.Source(tt.file); got != tt.want {
			t.Errorf("Resolve(%q).Source(%s) = %+v, want %+v", tt.path, tt.file, got, tt.want)
		}
	}
	r := Resolve(root, "/~alice/blog/x")
	if got := fmt.Sprint(r.Chain[2].Granted); got != "feeds.txt subdirectories.txt" {
		t.Errorf("blog is granted %s", got)
	}
	if got := fmt.Sprint(r.Chain[1].Granted); got != "every file except robots.txt" {
		t.Errorf("alice is granted %s", got)
	}
	for _, n := range Registered() {
		if _, ok := r.Files[n]; !ok {
			t.Errorf("Files lacks registered %s", n)
		}
	}
}

func TestResolveNilRoot(t *testing.T) {
	r := Resolve(nil, "/a")
	if len(r.Chain) != 1 || r.Governor("robots.txt") != nil || r.Source("robots.txt") != (Source{Step: 0}) {
		t.Errorf("Resolve(nil) = %+v", r)
	}
}
