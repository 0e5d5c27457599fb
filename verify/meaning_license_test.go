package verify

import (
	"strings"
	"testing"
)

// TestCompareRobotsLicense: the licence robots.txt's License line names
// (RSL 1.0, read as the rights package reads it) is part of the file's
// meaning. A served file that names another licence, none, or one the
// build does not is a failure; one that holds the build's licence on
// another line (a block prepended before it) is a note.
func TestCompareRobotsLicense(t *testing.T) {
	const lic = "License: https://example.org/license.xml\n\n"
	built := lic + builtRobots
	for _, c := range []struct {
		name, built, served string
		problem             string // "" none
		note                string
	}{
		{"other licence", built, "License: https://example.org/other.xml\n\n" + builtRobots,
			"differs from the build in meaning for every crawler: licence (License line, RSL 1.0) https://example.org/license.xml (line 1) in the build, https://example.org/other.xml (line 1) as served", ""},
		{"dropped", built, builtRobots,
			"licence (License line, RSL 1.0) https://example.org/license.xml (line 1) in the build, none as served", ""},
		{"added", builtRobots, lic + builtRobots,
			"licence (License line, RSL 1.0) none in the build, https://example.org/license.xml (line 1) as served", ""},
		{"moved", built, "# managed\nUser-agent: Bytespider\nDisallow: /\n\n" + built,
			"", "the licence (License line, RSL 1.0) is the build's, https://example.org/license.xml, on line 5 as served and line 1 in the build"},
		{"second licence appended", built, built + "License: https://example.org/other.xml\n",
			"differs from the build in meaning for every crawler: licence (License line, RSL 1.0) https://example.org/other.xml (line 11) as served besides https://example.org/license.xml (line 1), which the build does not name: a reader that takes one licence may take either", ""},
		{"second licence in a group", built, built + "Disallow: /x/\nLicense: https://example.org/other.xml\n",
			"licence (License line, RSL 1.0) https://example.org/other.xml (line 12) as served besides", ""},
		{"second licence dropped", built + "License: https://example.org/other.xml\n", built,
			"differs from the build in meaning for every crawler: licence (License line, RSL 1.0) https://example.org/other.xml (line 11) in the build besides https://example.org/license.xml (line 1), not as served", ""},
		{"licence repeated", built, built + "License: https://example.org/license.xml\n",
			"", "the licence (License line, RSL 1.0) https://example.org/license.xml is named again on line 11 as served"},
		{"same words", built, strings.ReplaceAll(built, "License: ", "license:   "),
			"", "not in meaning: every agent's fetch verdicts and usage preferences, and the licence, are the same"},
	} {
		var r Result
		CompareRobots([]byte(c.built), []byte(c.served)).Report(&r, len(c.served), len(c.built))
		problems, notes := strings.Join(r.Problems, "\n"), strings.Join(r.Notes, "\n")
		if c.problem == "" && strings.Contains(problems, "licence") {
			t.Errorf("%s: problems %q", c.name, r.Problems)
		}
		if c.problem != "" && !strings.Contains(problems, c.problem) {
			t.Errorf("%s: problems lack %q:\n%s", c.name, c.problem, problems)
		}
		if c.note != "" && !strings.Contains(notes, c.note) {
			t.Errorf("%s: notes lack %q:\n%s", c.name, c.note, notes)
		}
	}
}
