package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/discgen/discgen/schema"
	"github.com/discgen/discgen/templates"
)

func runSchema(args []string, stdout, stderr io.Writer) error {
	fset := newFlags("schema", schemaUsage, stdout)
	if err := parseFlags(fset, args); err != nil {
		return helpOK(err)
	}
	if fset.NArg() > 0 {
		return usagef("schema: unexpected argument %q", fset.Arg(0))
	}
	_, err := stdout.Write(schema.Source())
	return err
}

func runInit(args []string, stdout, stderr io.Writer) error {
	var file string
	var force bool
	fset := newFlags("init", initUsage, stdout)
	fset.StringVarP(&file, "file", "f", "site.yaml", "")
	fset.BoolVar(&force, "force", false, "")
	if err := parseFlags(fset, args); err != nil {
		return helpOK(err)
	}
	if fset.NArg() > 0 {
		return usagef("init: unexpected argument %q", fset.Arg(0))
	}
	starter := templates.Starter()
	if file == "-" {
		_, err := stdout.Write(starter)
		return err
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(file, flags, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return &hintError{fmt.Errorf("%s already exists", file), []string{"use --force to overwrite it, or -f to write elsewhere"}}
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(starter); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s; next: discgen build -f %s -o public\n", file, file)
	return nil
}
