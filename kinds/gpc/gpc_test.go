package gpc

import "testing"

func TestRenderAndDate(t *testing.T) {
	if got, want := string(RenderFile(File{GPC: true, LastUpdate: "2026-11-01"})), "{\n  \"gpc\": true,\n  \"lastUpdate\": \"2026-11-01\"\n}\n"; got != want {
		t.Errorf("gpc.json: %q, want %q", got, want)
	}
	if got, want := string(RenderFile(File{})), "{\n  \"gpc\": false\n}\n"; got != want {
		t.Errorf("gpc.json: %q, want %q", got, want)
	}
	for _, d := range []string{"2026-02-29", "26-01-01", "2026-1-01", "2026-01-01T00:00:00Z", ""} {
		if CheckDate(d) == "" {
			t.Errorf("CheckDate(%q) accepted it", d)
		}
	}
	if msg := CheckDate("2028-02-29"); msg != "" {
		t.Errorf("a leap day: %s", msg)
	}
}
