package main

import (
	"io"

	"github.com/spf13/pflag"
)

// The manual page, discgen(1), is written from the same texts as -h: the
// main usage, each command's usage and each command's flag set
// (cli.Program.Man).

const manUsage = `Usage: discgen man

Print discgen's manual page, discgen(1), in roff: the usage of every
command and its options, as -h prints them.

Example:
    discgen man > discgen.1 && man -l discgen.1
`

func manCommand(fs *pflag.FlagSet) runner {
	return func(e *call, fs *pflag.FlagSet) error {
		stdout := e.stdout
		if fs.NArg() != 0 {
			return usagef("man: unexpected argument %q", fs.Arg(0))
		}
		_, err := io.WriteString(stdout, program().Man())
		return err
	}
}
