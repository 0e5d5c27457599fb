package autodisc

import (
	"fmt"
	"strings"

	"github.com/discgen/discgen/pathspace"
)

// Delegation is one line of a subdirectories.txt that [ParseSubdirectories]
// accepted.
type Delegation struct {
	Line  int             // 1-based line number
	Path  string          // the path as written
	Space pathspace.Space // the space delegated, absolute
	Grant pathspace.Grant // the only or except list; neither means every file
}

// Problem is a line, or a name on a line, of a subdirectories.txt that
// [ParseSubdirectories] ignored.
type Problem struct {
	Line    int
	Code    string
	Message string
}

// ParseSubdirectories reads a subdirectories.txt written by the authority
// for the space base (seed 000 section 4.2). Each non-blank line is a path
// relative to base, optionally followed by file names (an only list) or by
// "-" and file names (an except list), all separated by whitespace.
//
// A line whose path [pathspace.Parse] refuses, such as one that leaves
// base's space, is ignored. A name that is not a file name ([ValidName]) is
// dropped from its list; a list that loses every name still stands as the
// kind of list it was, so an only list of bad names delegates nothing but
// subdirectories.txt. Both are reported as problems, in line order. Whether
// the delegator holds the files it hands over is not checked here; see
// [pathspace.CheckGrant].
func ParseSubdirectories(base pathspace.Space, data []byte) ([]Delegation, []Problem) {
	var out []Delegation
	var probs []Problem
	for n, line := range Lines(data) {
		fields := strings.Fields(line)
		raw := fields[0]
		space, err := pathspace.Parse(base, raw)
		if err != nil {
			probs = append(probs, Problem{n, CodeDelegation, fmt.Sprintf("%v: line ignored", err)})
			continue
		}
		d := Delegation{Line: n, Path: raw, Space: space}
		rest := fields[1:]
		except := len(rest) > 0 && rest[0] == "-"
		if except {
			rest = rest[1:]
		}
		var names []string
		if len(rest) > 0 || except {
			names = []string{}
		}
		for _, name := range rest {
			if !ValidName(name) {
				probs = append(probs, Problem{n, CodeName, fmt.Sprintf("%q is not a file name: left out of the list", name)})
				continue
			}
			names = append(names, name)
		}
		if except {
			d.Grant.Except = names
		} else {
			d.Grant.Only = names
		}
		out = append(out, d)
	}
	return out, probs
}
