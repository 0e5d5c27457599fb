package output_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/discgen/discgen/output"
	"github.com/discgen/discgen/tree"
)

// A build renders its files into a tree, plans them against the output
// root and discgen's record of what it wrote there, then applies the plan.
// A second build changes only what its tree changes, and removes what it
// no longer produces, since the record says discgen wrote it. A file
// discgen did not write is a problem of the plan, and Apply then writes
// nothing.
func ExamplePlan() {
	dir, err := os.MkdirTemp("", "discgen-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	root := filepath.Join(dir, "public")
	opt := output.Options{StateDir: filepath.Join(dir, ".discgen"), NoSync: true}
	w := output.NewWriter()
	defer w.Close()

	build := func(files map[string]string) {
		t := tree.Tree{}
		for p, data := range files {
			if err := t.Put(p, []byte(data)); err != nil {
				fmt.Println(err)
				return
			}
		}
		c, err := output.Plan(root, t, opt)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, p := range c.Problems {
			rel, _ := filepath.Rel(dir, p.File)
			fmt.Printf("%s: %s: %s\n", p.Kind, filepath.ToSlash(rel), p.Message)
		}
		if err := c.WriteList(os.Stdout, "public"); err != nil {
			fmt.Println(err)
		}
		res, err := w.Apply(c)
		if pe := (*output.ProblemError)(nil); errors.As(err, &pe) {
			fmt.Printf("nothing written: %d problem\n", len(pe.Problems))
			return
		} else if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("added %d, updated %d, removed %d, unchanged %d\n", res.Added, res.Updated, res.Removed, res.Unchanged)
	}
	build(map[string]string{
		"robots.txt":         "User-agent: *\nDisallow: /private/\n",
		"autodisc/index.txt": "https://example.org/\n",
	})
	fmt.Println("--")
	build(map[string]string{
		"robots.txt": "User-agent: *\nDisallow:\n",
	})
	fmt.Println("--")
	if err := os.WriteFile(filepath.Join(root, "llms.txt"), []byte("# Written by hand\n"), 0o644); err != nil {
		fmt.Println(err)
	}
	build(map[string]string{
		"robots.txt": "User-agent: *\nDisallow:\n",
		"llms.txt":   "# Example\n",
	})
	if err := w.Flush(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// add public/autodisc/index.txt
	// add public/robots.txt
	// added 2, updated 0, removed 0, unchanged 0
	// --
	// remove public/autodisc/index.txt
	// update public/robots.txt
	// added 0, updated 1, removed 1, unchanged 0
	// --
	// foreign file: public/llms.txt: exists and was not written by discgen (its content differs)
	// nothing written: 1 problem
}
