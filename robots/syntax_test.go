package robots

import "testing"

func TestSyntax(t *testing.T) {
	for _, c := range []struct {
		s           string
		field, host bool
	}{
		{"Crawl-delay", true, true},
		{"x_y", true, false},
		{"www.example.org", false, true},
		{"www.example.org:8080", false, true},
		{"1field", false, true},
		{"-a.example", false, false},
		{"a-.example", false, false},
		{"a b", false, false},
		{"", false, false},
		{"example.org:", false, false},
	} {
		if got := IsFieldName(c.s); got != c.field {
			t.Errorf("IsFieldName(%q) = %v, want %v", c.s, got, c.field)
		}
		if got := IsHost(c.s); got != c.host {
			t.Errorf("IsHost(%q) = %v, want %v", c.s, got, c.host)
		}
	}
}
