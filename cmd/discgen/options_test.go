package main

import (
	"bytes"
	"github.com/discgen/discgen/internal/cli"
	"os/exec"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// TestUsageOptionsFromFlags: every command's -h lists every flag it
// defines, with its description, in the Options block written from the
// flag set, and no usage text carries a hand-written block beside it.
func TestUsageOptionsFromFlags(t *testing.T) {
	for _, name := range sortedCommands() {
		flags := cli.Flags(commandFlagSet(name))
		text := commandUsage(name)
		if strings.Contains(text, "{{options}}") {
			t.Errorf("%s -h: the options line was not replaced", name)
		}
		if strings.Count(text, "\nOptions:\n") > 1 {
			t.Errorf("%s -h: two Options blocks", name)
		}
		if len(flags) > 0 && !strings.Contains(commands[name].usage, "{{options}}\n") {
			t.Errorf("%s: the usage text has no {{options}} line for its %d flags", name, len(flags))
		}
		for _, f := range flags {
			if f.Usage == "" {
				t.Errorf("%s --%s: no usage string", name, f.Name)
			}
			if !strings.Contains(text, "--"+f.Name) || !strings.Contains(text, cli.Fill(f.Usage)[0]) {
				t.Errorf("%s -h does not describe --%s", name, f.Name)
			}
		}
	}
}

// TestManPage: the page names every command and every flag, is the same
// bytes each time, and groff reads it without a warning.
func TestManPage(t *testing.T) {
	page := program().Man()
	if page != program().Man() {
		t.Fatal("the page differs between two renderings")
	}
	for _, name := range sortedCommands() {
		if !strings.Contains(page, ".SS \"discgen "+name+"\"\n") {
			t.Errorf("no section for %s", name)
		}
		for _, f := range cli.Flags(commandFlagSet(name)) {
			if !strings.Contains(page, `\fB\-\-`+cli.RoffEscape(f.Name)+`\fR`) {
				t.Errorf("%s --%s is not in the page", name, f.Name)
			}
		}
	}
	groff := testenv.NeedsTool(t, "groff", "apt-get install groff-base")
	cmd := exec.Command(groff, "-man", "-Tutf8", "-ww", "-z")
	cmd.Stdin = strings.NewReader(page)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Errorf("groff: %v\n%s", err, stderr.String())
	}
}
