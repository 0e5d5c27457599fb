package robots

import "github.com/discgen/discgen/internal/lazyre"

var (
	fieldNameRE = lazyre.New(`^[A-Za-z][A-Za-z0-9_-]*$`)
	hostRE      = lazyre.New(`^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*(:[0-9]+)?$`)
)

// IsFieldName reports whether s can be the field name of a robots.txt
// line: a letter, then letters, digits, '_' and '-'.
func IsFieldName(s string) bool { return fieldNameRE.MatchString(s) }

// IsHost reports whether s can be the value of a Host: line: a host name
// of LDH labels, with an optional port.
func IsHost(s string) bool { return hostRE.MatchString(s) }
