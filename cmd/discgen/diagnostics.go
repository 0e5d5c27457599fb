package main

import "strings"

// checkFormat refuses a --format value not among allowed.
func checkFormat(f string, allowed ...string) error {
	for _, a := range allowed {
		if f == a {
			return nil
		}
	}
	return usagef("--format %q: use %s", f, strings.Join(allowed, ", "))
}
