// Command floor is a hello-world that links the four libraries every
// discgen process initialises: go.yaml.in/yaml/v3,
// santhosh-tekuri/jsonschema/v5, spf13/pflag and bmatcuk/doublestar/v4.
// It prints a line and exits, as tools/floor/hello does, after the
// libraries' package initialisation (jsonschema/v5 compiles its drafts'
// meta-schemas there): the floor a single site's build is measured
// against, beside the plain hello-world and `tar -x`. With -use it also
// calls each library once, so that a reader can check the floor links
// what it names; bench.sh runs it without.
//
//	tools/floor/bench.sh    # the example's no-change build against both floors
package main

import (
	"fmt"
	"os"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-use" {
		if err := use(); err != nil {
			fmt.Fprintln(os.Stderr, "floor:", err)
			os.Exit(1)
		}
	}
	fmt.Println("hello, world")
}

// use calls each library once.
func use() error {
	fs := pflag.NewFlagSet("floor", pflag.ContinueOnError)
	name := fs.String("name", "", "")
	if err := fs.Parse([]string{"--name", "x.yaml"}); err != nil {
		return err
	}
	var v any
	if err := yaml.Unmarshal([]byte("a: 1\n"), &v); err != nil {
		return err
	}
	if ok, err := doublestar.Match("*.yaml", *name); err != nil || !ok {
		return fmt.Errorf("doublestar: %v %v", ok, err)
	}
	s, err := jsonschema.CompileString("floor.json", `{"type": "object"}`)
	if err != nil {
		return err
	}
	return s.Validate(map[string]any{"a": 1})
}
