package pathspace_test

import (
	"fmt"

	"github.com/discgen/discgen/pathspace"
)

// A delegation path is read relative to the space of the one who writes
// it; the result is in canonical form, and what is wrong with a path is an
// *Error that names it.
func ExampleParse() {
	users, err := pathspace.Parse(pathspace.Root(), "~*")
	fmt.Println(users, err)
	alice, err := pathspace.Parse(pathspace.Root(), "/~alice/")
	fmt.Println(alice, err)
	blog, err := pathspace.Parse(alice, "blog")
	fmt.Println(blog, err, blog.Depth())
	_, err = pathspace.Parse(alice, "a//b")
	fmt.Println(err)
	fmt.Println(users.Contains("/~bob/index.html"), users.Contains("/about/"))
	// Output:
	// /~*/ <nil>
	// /~alice/ <nil>
	// /~alice/blog/ <nil> 2
	// "a//b" has an empty segment
	// true false
}

// Within and Overlap are the two questions a delegation asks of spaces:
// does a tenant's space lie inside what the site delegated, and do two
// delegations share any path (which seed 000 forbids)?
func ExampleWithin() {
	parse := func(s string) pathspace.Space {
		sp, err := pathspace.Parse(pathspace.Root(), s)
		if err != nil {
			panic(err)
		}
		return sp
	}
	users, alice, aliceBlog, team := parse("/~*/"), parse("/~alice/"), parse("/~alice/blog/"), parse("/~a*/")
	fmt.Println(pathspace.Within(users, alice), pathspace.Within(users, aliceBlog), pathspace.Within(alice, users))
	fmt.Println(pathspace.Overlap(team, alice), pathspace.Overlap(team, parse("/~bob/")))
	for _, c := range pathspace.CheckSet([]pathspace.Space{users, parse("/docs/"), alice}) {
		fmt.Println(c.I, c.J, c.Relation)
	}
	// Output:
	// true true false
	// true false
	// 0 2 encloses
}
