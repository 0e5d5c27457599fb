package rfc8615

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestRegistryHeader(t *testing.T) {
	for _, want := range []string{
		"# Registry: https://www.iana.org/assignments/well-known-uris/\n",
		"# Date: ",
		"RFC 8615",
	} {
		if !strings.Contains(registryText, want) {
			t.Errorf("registry.txt header lacks %q", want)
		}
	}
	if !regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`).MatchString(RegistryDate()) {
		t.Errorf("RegistryDate() = %q, want YYYY-MM-DD", RegistryDate())
	}
}

func TestRegistryFileFormat(t *testing.T) {
	var names []string
	for i, line := range strings.Split(strings.TrimSuffix(registryText, "\n"), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := CheckName(line); err != nil {
			t.Errorf("registry.txt:%d: %v", i+1, err)
		}
		if line != strings.TrimSpace(line) || normalizeName(line) != line {
			t.Errorf("registry.txt:%d: %q is not in normal form", i+1, line)
		}
		names = append(names, line)
	}
	if len(names) < 100 {
		t.Fatalf("registry.txt has %d names; the copy of 2026-09-08 has 104", len(names))
	}
	if !slices.IsSorted(names) {
		t.Error("registry.txt names are not sorted bytewise")
	}
	if c := slices.Compact(slices.Clone(names)); len(c) != len(names) {
		t.Errorf("registry.txt has %d duplicate names", len(names)-len(c))
	}
	if got := RegistryNames(); !slices.Equal(got, names) {
		t.Errorf("RegistryNames() has %d names, the file %d", len(got), len(names))
	}
}

func TestRegistered(t *testing.T) {
	for _, name := range []string{
		"security.txt", "change-password", "openid-configuration", "nodeinfo",
		"gpc.json", "acme-challenge", "webfinger", "host-meta", "mta-sts.txt",
		"assetlinks.json", "agent-card.json", "xregistry",
		"security%2Etxt", "%73ecurity.txt", "matrix/client", "acme-challenge/TOKEN",
	} {
		if !Registered(name) {
			t.Errorf("Registered(%q) = false, want true", name)
		}
	}
	for _, name := range []string{
		"", "Security.txt", "security.txt ", "apple-app-site-association",
		"robots.txt", "x-custom", "security", "x-custom/server", "server/matrix",
	} {
		if Registered(name) {
			t.Errorf("Registered(%q) = true, want false", name)
		}
	}
}

func TestParseRegistry(t *testing.T) {
	r := parseRegistry("# c\n# Date: 2001-02-03\n\nb\na\n  c  \r\nb\n# Date: 1999-01-01\n")
	if r.date != "2001-02-03" {
		t.Errorf("date = %q, want 2001-02-03", r.date)
	}
	if want := []string{"a", "b", "c"}; !slices.Equal(r.names, want) {
		t.Errorf("names = %q, want %q", r.names, want)
	}
}

func TestRegistryNamesIsACopy(t *testing.T) {
	n := RegistryNames()
	n[0] = "changed"
	if RegistryNames()[0] == "changed" {
		t.Error("RegistryNames returns the package's own slice")
	}
}
