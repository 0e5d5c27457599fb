package main

import "github.com/discgen/discgen/internal/cli"

// commandUsage is command name's usage, as name -h prints it: its options
// block written from its flags (cli.Usage).
func commandUsage(name string) string {
	return cli.Usage(commands[name].usage, commandFlagSet(name))
}
