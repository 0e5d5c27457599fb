package tree_test

import (
	"fmt"

	"github.com/discgen/discgen/tree"
)

// A build renders every file of an output root into a Tree before anything
// is written: Put refuses a path that could leave the root and a file
// produced twice, and Paths lists the files in the order they are written
// and compared.
func ExampleTree() {
	t := tree.Tree{}
	fmt.Println(t.Put("robots.txt", []byte("User-agent: *\nDisallow:\n")))
	fmt.Println(t.Put("autodisc/index.txt", []byte("https://example.org/\n")))
	fmt.Println(t.Put("autodisc/index.txt", []byte("again\n")))
	fmt.Println(t.Put("../etc/passwd", nil))
	fmt.Println(t.Put("/robots.txt", nil))
	t["autodisc/current"] = tree.Entry{Link: "index.txt"}
	for _, p := range t.Paths() {
		fmt.Printf("%s %d bytes, link %q\n", p, len(t[p].Data), t[p].Link)
	}
	// Output:
	// <nil>
	// <nil>
	// autodisc/index.txt: produced twice
	// "../etc/passwd": output path has an empty, "." or ".." segment
	// "/robots.txt": output path must be relative and use forward slashes
	// autodisc/current 0 bytes, link "index.txt"
	// autodisc/index.txt 21 bytes, link ""
	// robots.txt 24 bytes, link ""
}
