package validate_test

import (
	"testing"

	"github.com/discgen/discgen/validate"
)

var autodiscFiles = []string{"robots.txt", "icons.txt", "description.txt", "feeds.txt", "subdirectories.txt", "x-a.txt", "index.txt"}

// members lists which of autodiscFiles the set holds, as a string of
// 0s and 1s in their order.
func members(s validate.FileSet) string {
	b := make([]byte, len(autodiscFiles))
	for i, n := range autodiscFiles {
		b[i] = '0'
		if s.Has(n) {
			b[i] = '1'
		}
	}
	return string(b)
}

func TestGrant(t *testing.T) {
	all := validate.AllFiles()
	feedsIcons := validate.Grant(all, []string{"feeds.txt", "icons.txt"}, nil)
	noRobots := validate.Grant(all, nil, []string{"robots.txt"})
	for _, tc := range []struct {
		name     string
		set      validate.FileSet
		want     string // robots icons description feeds subdirectories x-a index
		wantText string
	}{
		{"all", all, "1111111", "every file"},
		{"neither list", validate.Grant(all, nil, nil), "1111111", "every file"},
		{"only", feedsIcons, "0101100", "feeds.txt, icons.txt, subdirectories.txt"},
		{"except", noRobots, "0111111", "every file but robots.txt"},
		{"only of only", validate.Grant(feedsIcons, []string{"feeds.txt", "robots.txt"}, nil), "0001100", "feeds.txt, subdirectories.txt"},
		{"except of only", validate.Grant(feedsIcons, nil, []string{"icons.txt"}), "0001100", "feeds.txt, subdirectories.txt"},
		{"except of except", validate.Grant(noRobots, nil, []string{"x-a.txt"}), "0111101", "every file but robots.txt, x-a.txt"},
		{"only of except", validate.Grant(noRobots, []string{"robots.txt", "x-a.txt"}, nil), "0000110", "subdirectories.txt, x-a.txt"},
		{"only subdirectories", validate.Grant(all, []string{"subdirectories.txt"}, nil), "0000100", "subdirectories.txt"},
		{"neither list of only", validate.Grant(feedsIcons, nil, nil), "0101100", "feeds.txt, icons.txt, subdirectories.txt"},
	} {
		if got := members(tc.set); got != tc.want {
			t.Errorf("%s: holds %s, want %s", tc.name, got, tc.want)
		}
		if got := tc.set.String(); got != tc.wantText {
			t.Errorf("%s: String() = %q, want %q", tc.name, got, tc.wantText)
		}
	}
}

func TestIsAgentName(t *testing.T) {
	for s, want := range map[string]bool{
		"*": true, "Googlebot": true, "foo_bar-baz": true, "-": true,
		"bot2": true, "MJ12bot": true, "AI2Bot": true, "Ai2Bot-Dolma": true, "img2dataset": true, "360Spider": true, "v1.2bot": true,
		"": false, "**": false, "360": false, "1.2": false, "Googlebot/2.1": false, "a b": false, "a:b": false, "é": false, "*bot": false,
	} {
		if got := validate.IsAgentName(s); got != want {
			t.Errorf("IsAgentName(%q) = %v, want %v", s, got, want)
		}
	}
}
