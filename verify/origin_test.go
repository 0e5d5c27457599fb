package verify

import "testing"

func TestIsOrigin(t *testing.T) {
	for s, want := range map[string]bool{
		"https://www.example.org/": true, "http://localhost:8080": true,
		"https://example.org/path": false, "ftp://example.org/": false, "example.org": false, "https:///": false,
	} {
		if IsOrigin(s) != want {
			t.Errorf("IsOrigin(%q) = %v", s, !want)
		}
	}
}
