package trafficadvice

import "testing"

func TestCheckAndRender(t *testing.T) {
	ta := []Entry{{UserAgent: "prefetch-proxy", Fraction: "0.25"}, {UserAgent: "*", Disallow: true}}
	if fs := CheckList(ta); len(fs) > 0 {
		t.Errorf("traffic advice: %v", fs)
	}
	want := "[\n  {\n    \"user_agent\": \"prefetch-proxy\",\n    \"fraction\": 0.25\n  },\n  {\n    \"user_agent\": \"*\",\n    \"disallow\": true\n  }\n]\n"
	if got := string(RenderList(ta)); got != want {
		t.Errorf("traffic-advice: %q, want %q", got, want)
	}
}
