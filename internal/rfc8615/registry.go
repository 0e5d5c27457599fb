package rfc8615

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
)

// registryText is the dated copy of the IANA registry's names; its header
// says where it came from and how complete it is.
//
//go:embed registry.txt
var registryText string

type registryCopy struct {
	date  string
	names []string // sorted, unique
	set   map[string]bool
}

var registry = sync.OnceValue(func() *registryCopy { return parseRegistry(registryText) })

// parseRegistry reads the registry.txt format: "#" comment lines (one of
// them "# Date: YYYY-MM-DD"), blank lines, and one name per line.
func parseRegistry(text string) *registryCopy {
	r := &registryCopy{set: make(map[string]bool)}
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if date, ok := strings.CutPrefix(line, "# Date:"); ok && r.date == "" {
			r.date = strings.TrimSpace(date)
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !r.set[line] {
			r.set[line] = true
			r.names = append(r.names, line)
		}
	}
	slices.Sort(r.names)
	return r
}

// Registered reports whether the first segment of name is in the shipped
// copy of the IANA "Well-Known URIs" registry: the registry holds names of
// one segment, under which a specification may define more ("matrix" for
// "matrix/server"). The comparison is case-sensitive, as URI paths are,
// after the percent-encoding normalization of RFC 3986 section 6.2.2 (so
// "security%2Etxt" is "security.txt").
func Registered(name string) bool {
	return registry().set[normalizeName(FirstSegment(name))]
}

// RegistryDate is the date (YYYY-MM-DD) of the shipped registry copy, for
// messages such as "not in the IANA registry (copy of 2026-09-08)".
func RegistryDate() string {
	return registry().date
}

// RegistryNames returns the names of the shipped registry copy, sorted.
func RegistryNames() []string {
	return slices.Clone(registry().names)
}
