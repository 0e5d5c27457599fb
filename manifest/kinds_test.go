package manifest

import (
	"sync"
	"testing"
)

type kindValueForTest struct {
	A string   `json:"a"`
	B []string `json:"b,omitempty"`
}

const kindsSite = `version: 1
site: {url: "https://example.org/"}
well_known:
  gpc: {last_update: "2026-01-02"}
environments:
  staging:
    well_known:
      gpc: {gpc: false}
`

// TestKindValue: a kind's value is decoded at its key once, shared by the
// goroutines that read the site, null or absent is none, and an
// environment's value replaces the manifest's own.
func TestKindValue(t *testing.T) {
	doc, errs := LoadSite("m.yaml", []byte(kindsSite), "")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	type gpc struct {
		GPC        *bool  `json:"gpc"`
		LastUpdate string `json:"last_update"`
	}
	var wg sync.WaitGroup
	got := make([]*gpc, 8)
	for i := range got {
		wg.Go(func() { got[i] = KindValue[gpc](doc.Value, "well_known.gpc") })
	}
	wg.Wait()
	for _, g := range got {
		if g != got[0] || g == nil || g.LastUpdate != "2026-01-02" || g.GPC != nil {
			t.Fatalf("well_known.gpc: %+v, want one value decoded once", got)
		}
	}
	for _, key := range []string{"well_known.traffic_advice", "ads_txt", "site.url.x", "well_known.gpc.gpc"} {
		if v := KindValue[gpc](doc.Value, key); v != nil {
			t.Errorf("%s: %+v, want none", key, v)
		}
	}
	staging, errs := doc.WithEnv("staging")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	if g := KindValue[gpc](staging.Value, "well_known.gpc"); g == nil || g.GPC == nil || *g.GPC || g.LastUpdate != "" {
		t.Errorf("staging: well_known.gpc %+v, want the environment's", g)
	}
	if g := KindValue[gpc](doc.Value, "well_known.gpc"); g != got[0] {
		t.Errorf("the environment changed the manifest's own value: %+v", g)
	}
	var s Site
	SetKindValue(&s, "x", &kindValueForTest{A: "a"})
	if v := KindValue[kindValueForTest](&s, "x"); v == nil || v.A != "a" {
		t.Errorf("set value: %+v", v)
	}
	if v := KindValue[kindValueForTest](&Site{}, "x"); v != nil {
		t.Errorf("a site made in Go: %+v", v)
	}
}

// TestKindValueAbsentAllocs: reading a kind a site does not give costs
// no allocation, as the many sites of a scale build mostly give none.
func TestKindValueAbsentAllocs(t *testing.T) {
	doc, errs := LoadSite("m.yaml", []byte(kindsSite), "")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	if n := testing.AllocsPerRun(100, func() {
		_ = KindValue[kindValueForTest](doc.Value, "well_known.traffic_advice")
		_ = KindValue[kindValueForTest](doc.Value, "ads_txt")
	}); n != 0 {
		t.Errorf("%v allocations per read of an absent kind, want 0", n)
	}
}
