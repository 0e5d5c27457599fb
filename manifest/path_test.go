package manifest_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/discgen/discgen/manifest"
)

func TestKeyIndex(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{manifest.Key("", "agents"), "agents"},
		{manifest.Key("site", "url"), "site.url"},
		{manifest.Index("agents", 2), "agents[2]"},
		{manifest.Key(manifest.Index("agents", 2), "names"), "agents[2].names"},
		{manifest.Index(manifest.Key(manifest.Index("agents", 2), "names"), 0), "agents[2].names[0]"},
		{manifest.Key("files", "x-contact.txt"), `files["x-contact.txt"]`},
		{manifest.Key("", "x-rules"), `["x-rules"]`},
		{manifest.Key("files", `a"]b`), `files["a\"]b"]`},
		{manifest.Key("files", "a\nb"), `files["a\nb"]`},
		{manifest.Key("m", "2"), `m["2"]`},
		{manifest.Key("m", "_a1"), `m._a1`},
		{manifest.Key("m", ""), `m[""]`},
	} {
		if tc.got != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
}

func TestParent(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"", ""},
		{"agents", ""},
		{"agents[2]", "agents"},
		{"agents[2].names", "agents[2]"},
		{"agents[2].names[0]", "agents[2].names"},
		{"site.url", "site"},
		{`files["x-contact.txt"]`, "files"},
		{`files["a.b"].c`, `files["a.b"]`},
		{`files["a[1]"]`, "files"},
		{`files["a[1"][3]`, `files["a[1"]`},
		{`files["a\"]b"]`, "files"},
		{`["x-rules"]`, ""},
		{`["x-rules"][0]`, `["x-rules"]`},
	} {
		if got := manifest.Parent(tc.path); got != tc.want {
			t.Errorf("Parent(%s) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// TestParentUndoesKeyAndIndex builds random paths from keys that hold the
// path syntax's own characters and peels them off again.
func TestParentUndoesKeyAndIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "_", "1", ".", "[", "]", `"`, `\`, "x-", " ", "é", "\n"}
	for range 2000 {
		var chain []string
		path := ""
		for range 1 + r.IntN(6) {
			if r.IntN(3) == 0 {
				path = manifest.Index(path, r.IntN(12))
			} else {
				var k string
				for range r.IntN(5) {
					k += alphabet[r.IntN(len(alphabet))]
				}
				path = manifest.Key(path, k)
			}
			chain = append(chain, path)
		}
		for i := len(chain) - 1; i >= 0; i-- {
			want := ""
			if i > 0 {
				want = chain[i-1]
			}
			if got := manifest.Parent(chain[i]); got != want {
				t.Fatalf("Parent(%s) = %s, want %s (chain %q)", chain[i], got, want, slices.Clip(chain))
			}
		}
	}
}
