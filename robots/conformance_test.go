package robots

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// conformanceDir holds Google's robots.txt vectors, taken from robots_test.cc
// in google/robotstxt (Apache-2.0; source and licence in its README.md).
var conformanceDir = filepath.Join("testdata", "google")

type googleVector struct {
	ID      int    `json:"id"`
	Test    string `json:"test"`
	Line    int    `json:"line"`
	Robots  string `json:"robots"`
	Agent   string `json:"agent"`
	URL     string `json:"url"`
	Allowed bool   `json:"allowed"`
}

type pathVector struct {
	URL  string `json:"url"`
	Path string `json:"path"`
	Line int    `json:"line"`
}

// divergent lists the GoogleOnly_ vectors Match does not follow, by id, with
// the reason. Every other vector must pass, and these must fail: a listed
// vector that starts passing fails the test, so the list stays true.
var divergent = map[int]string{
	41: "the caller's agent \"Foo Bar\" is reduced to its product token Foo " +
		"(RFC 9309 2.2.1 matches product tokens), so it reads the Foo group; " +
		"Google compares the untrimmed string and falls back to *",
	79: "Google reads \"Allow: /d/index.html\" as also allowing /d/; RFC 9309 " +
		"has no such rule, and the 1996 draft and temoto/robotstxt do not " +
		"either, so Match does not (Portability warns, R017)",
}

func readJSONL[T any](t *testing.T, name string) []T {
	t.Helper()
	fh, err := os.Open(filepath.Join(conformanceDir, name))
	if err != nil {
		t.Fatalf("conformance vectors: %v", err)
	}
	defer fh.Close()
	var out []T
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no vectors found; the conformance test would test nothing", name)
	}
	return out
}

func TestGoogleVectors(t *testing.T) {
	vectors := readJSONL[googleVector](t, "google-robotstxt-vectors.jsonl")
	seen := map[int]bool{}
	var ids, googleOnly, followed int
	for _, v := range vectors {
		name := strings.TrimPrefix(v.Test, "RobotsUnittest.")
		t.Run(fmt.Sprintf("%d_%s_line%d", v.ID, name, v.Line), func(t *testing.T) {
			got := Parse([]byte(v.Robots)).Match(v.Agent, v.URL)
			reason, listed := divergent[v.ID]
			if listed && !strings.HasPrefix(name, "GoogleOnly_") {
				t.Fatalf("only GoogleOnly_ vectors may be listed as divergent")
			}
			seen[v.ID] = true
			pass := got.Allowed == v.Allowed
			switch {
			case listed && pass:
				t.Errorf("listed as divergent (%s) but now passes: remove it from the list", reason)
			case !listed && !pass:
				t.Errorf("robots.txt:\n%s\nagent %q url %q: allowed=%v (rule %q line %d), Google says %v",
					v.Robots, v.Agent, v.URL, got.Allowed, got.Rule, got.Line, v.Allowed)
			}
		})
		if strings.HasPrefix(name, "ID_") {
			ids++
		} else {
			googleOnly++
			if _, listed := divergent[v.ID]; !listed {
				followed++
			}
		}
	}
	for id := range divergent {
		if !seen[id] {
			t.Errorf("divergent vector %d is not in the vector file", id)
		}
	}
	t.Logf("%d ID_ vectors, %d GoogleOnly_ vectors (%d followed, %d not)", ids, googleOnly, followed, len(divergent))
}

func TestPathVectors(t *testing.T) {
	for _, v := range readJSONL[pathVector](t, "google-robotstxt-path-vectors.jsonl") {
		t.Run(fmt.Sprintf("line%d", v.Line), func(t *testing.T) {
			if got := PathOf(v.URL); got != v.Path {
				t.Errorf("PathOf(%q) = %q, want %q", v.URL, got, v.Path)
			}
		})
	}
}
