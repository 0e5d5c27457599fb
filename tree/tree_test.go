package tree

import (
	"slices"
	"testing"
)

func TestCheckPath(t *testing.T) {
	for _, p := range []string{"robots.txt", "autodisc/index.txt", "~alice/autodisc/x-a.txt", ".well-known/security.txt", "café/autodisc/feeds.txt"} {
		if err := CheckPath(p); err != nil {
			t.Errorf("CheckPath(%q) = %v", p, err)
		}
	}
	for _, p := range []string{"", "/robots.txt", "a//b", "a/./b", "../x", "a/..", `a\b`, "a/\x00", "a\nb", "x/\x7f"} {
		if err := CheckPath(p); err == nil {
			t.Errorf("CheckPath(%q) accepted", p)
		}
	}
}

func TestPut(t *testing.T) {
	tr := Tree{}
	if err := tr.Put("b/x.txt", []byte("1")); err != nil {
		t.Fatal(err)
	}
	if err := tr.Put("a.txt", []byte("2")); err != nil {
		t.Fatal(err)
	}
	if err := tr.Put("a.txt", []byte("3")); err == nil {
		t.Error("a path produced twice was accepted")
	}
	if err := tr.Put("../escape", nil); err == nil {
		t.Error("an escaping path was accepted")
	}
	if got := tr.Paths(); !slices.Equal(got, []string{"a.txt", "b/x.txt"}) {
		t.Errorf("Paths() = %v", got)
	}
	if string(tr["a.txt"].Data) != "2" {
		t.Error("a refused Put changed the entry")
	}
}
