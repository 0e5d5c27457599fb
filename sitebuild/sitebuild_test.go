package sitebuild

import (
	"testing"
	"time"
)

func TestBuild(t *testing.T) {
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for _, tenants := range []bool{false, true} {
		s, diags := Build(Options{Manifest: "../examples/site.yaml", Now: now, Tenants: tenants})
		if s == nil {
			t.Fatal(diags)
		}
		if s.Doc.Value.Site.URL != "https://www.fict.org/" || len(s.Tree["robots.txt"].Data) == 0 {
			t.Errorf("site: %s, robots.txt %d bytes", s.Doc.Value.Site.URL, len(s.Tree["robots.txt"].Data))
		}
		want := 0
		if tenants {
			want = 2
		}
		if len(s.Tenants) != want {
			t.Errorf("Tenants %v: %d tenants, want %d", tenants, len(s.Tenants), want)
		}
		for _, tn := range s.Tenants {
			if tn.Space.String() != "/~alice/" && tn.Space.String() != "/~bob/" {
				t.Errorf("tenant space %s", tn.Space)
			}
		}
	}
	if s, diags := Build(Options{Manifest: "missing.yaml", Now: now}); s != nil || !diags.HasErrors() {
		t.Errorf("a missing manifest: %v, %v", s, diags)
	}
}
