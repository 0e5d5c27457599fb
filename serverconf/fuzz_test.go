package serverconf

import (
	"errors"
	"strings"
	"testing"

	"github.com/discgen/discgen/tree"
)

// FuzzRender renders a one-file tree for every kind. A path is either
// refused with a *PathError (or, for the two public file names, a clash) or
// written as exactly one rule of the usual shape: the same number of lines as
// any other one-file tree, with the path where the rule names it.
func FuzzRender(f *testing.F) {
	for _, p := range []string{
		"robots.txt", "autodisc/index.txt", "café/autodisc/description.txt",
		".well-known/a:b", "a b", "a\nb", "a'b", "a}b", "_headers", ".htaccess",
		"\u202e", "a/../b", "%41", "日本/x",
	} {
		f.Add(p)
	}
	ref := map[Kind]int{}
	for _, k := range Kinds() {
		ref[k] = lines(f, tree.Tree{"a": {}}, k)
	}
	f.Fuzz(func(t *testing.T, p string) {
		for _, k := range Kinds() {
			pub, sep, err := Render(tree.Tree{p: {Data: []byte("x")}}, []Kind{k})
			if err != nil {
				var pe *PathError
				name, _ := k.File()
				if !errors.As(err, &pe) && !(p == name && strings.Contains(err.Error(), "already holds")) {
					t.Fatalf("%s: %q: unexpected error %v", k, p, err)
				}
				continue
			}
			if err := checkPath(k, p); err != nil {
				t.Fatalf("%s: %q rendered although checkPath says %v", k, p, err)
			}
			name, _ := k.File()
			data := string(pub[name].Data) + string(sep[name].Data)
			if n := strings.Count(data, "\n"); n != ref[k] {
				t.Fatalf("%s: %q gives %d lines, a plain path %d:\n%s", k, p, n, ref[k], data)
			}
			var rule string
			switch k {
			case Headers:
				rule = "\n" + escapedPath(p) + "\n"
			case Htaccess:
				rule = "\n<If \"%{REQUEST_URI} == '/" + p + "'\">\n"
			case Nginx:
				rule = "\nlocation = /" + p + " {\n"
			case Caddy:
				rule = "\n\tpath /" + p + "\n"
			}
			if strings.Count(data, rule) != 1 {
				t.Fatalf("%s: %q: rule %q not found once in\n%s", k, p, rule, data)
			}
		}
	})
}

func lines(tb testing.TB, tr tree.Tree, k Kind) int {
	pub, sep, err := Render(tr, []Kind{k})
	if err != nil {
		tb.Fatal(err)
	}
	name, _ := k.File()
	return strings.Count(string(pub[name].Data)+string(sep[name].Data), "\n")
}

// FuzzParseKinds checks that ParseKinds never panics, returns only known
// kinds without duplicates, and reads its own output back unchanged.
func FuzzParseKinds(f *testing.F) {
	for _, s := range []string{"", "nginx", "caddy, headers", "nginx,,x", "headers,headers", " , "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		kinds, err := ParseKinds(s)
		if err != nil {
			if kinds != nil {
				t.Fatalf("ParseKinds(%q) = %q with error %v", s, kinds, err)
			}
			return
		}
		seen := map[Kind]bool{}
		names := make([]string, len(kinds))
		for i, k := range kinds {
			if p, _ := k.File(); p == "" || seen[k] {
				t.Fatalf("ParseKinds(%q) = %q: unknown or repeated %q", s, kinds, k)
			}
			seen[k] = true
			names[i] = string(k)
		}
		again, err := ParseKinds(strings.Join(names, ","))
		if err != nil || strings.Join(names, ",") != joinKinds(again) {
			t.Fatalf("ParseKinds(%q) = %q, read back as %q, %v", s, kinds, again, err)
		}
	})
}

func joinKinds(ks []Kind) string {
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = string(k)
	}
	return strings.Join(names, ",")
}
