package diag_test

import (
	"fmt"
	"os"

	"github.com/discgen/discgen/diag"
)

// A check collects every problem it meets, in any order; Sort puts them in
// the order of the file, errors first at one position, and drops exact
// repeats, and WriteText prints them in the one grammar of every command.
func ExampleList() {
	var l diag.List
	l.Warnf(diag.Pos{File: "site.yaml", Line: 12, Col: 5}, "agents[1].names[0]", "%q is part of %q", "bot", "newsbot")
	l.Errorf(diag.Pos{File: "site.yaml", Line: 3, Col: 7}, "site", "%q is not an absolute URL", "example.org")
	l.Errorf(diag.Pos{File: "site.yaml", Line: 3, Col: 7}, "site", "%q is not an absolute URL", "example.org")
	l.Errorf(diag.Pos{File: "site.yaml"}, "", "no agents and no files: nothing to write")
	l.Sort()
	if err := l.WriteText(os.Stdout); err != nil {
		fmt.Println(err)
	}
	fmt.Println(len(l.Errors()), "errors,", len(l.Warnings()), "warning; fails:", l.HasErrors())
	// Output:
	// site.yaml: no agents and no files: nothing to write
	// site.yaml:3:7: site: "example.org" is not an absolute URL
	// site.yaml:12:5: warning: agents[1].names[0]: "bot" is part of "newsbot"
	// 2 errors, 1 warning; fails: true
}

// The line and column of a byte offset, as a reader of a file counts them:
// lines by "\n", columns in characters.
func ExampleAt() {
	data := []byte("User-agent: *\nDisallow: /été/\n")
	fmt.Println(diag.At("robots.txt", data, 27)) // the "t" after "é"
	// Output:
	// robots.txt:2:13
}
