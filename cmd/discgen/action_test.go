package main

import (
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The GitHub Action runs discgen build with flags spelled in action.yml;
// a renamed flag would break every workflow that uses it.
func TestActionUsesRealFlags(t *testing.T) {
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"manifest", "output", "check"} {
		if _, ok := action.Inputs[in]; !ok {
			t.Errorf("action.yml has no %q input", in)
		}
	}
	var f buildFlags
	fs := f.flagSet(io.Discard)
	script := action.Runs.Steps[len(action.Runs.Steps)-1].Run
	if !strings.Contains(script, " build ") && !strings.Contains(script, "(build ") {
		t.Fatalf("the last step does not run discgen build:\n%s", script)
	}
	flags := regexp.MustCompile(`--[a-z][a-z-]*`).FindAllString(script, -1)
	if len(flags) < 4 {
		t.Fatalf("found only %v in the action's script", flags)
	}
	for _, fl := range flags {
		if fs.Lookup(strings.TrimPrefix(fl, "--")) == nil {
			t.Errorf("action.yml passes %s, which discgen build does not define", fl)
		}
	}
}
