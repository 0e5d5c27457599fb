package main

import (
	"errors"
	"fmt"
	"github.com/discgen/discgen/internal/cli"
	"github.com/spf13/pflag"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/discgen/discgen/internal/atomicfile"
	"github.com/discgen/discgen/schema"
	"github.com/discgen/discgen/templates"
)

func schemaCommand(fset *pflag.FlagSet) runner {
	var file string
	fset.StringVarP(&file, "output", "o", "", "write the schema to FILE instead of stdout")
	cli.SetArgs(fset, "output", "FILE")
	return func(e *call, fset *pflag.FlagSet) error {
		stdout := e.stdout
		if fset.NArg() > 0 {
			return usagef("schema: unexpected argument %q", fset.Arg(0))
		}
		if file == "" || file == "-" {
			_, err := stdout.Write(schema.Source())
			return err
		}
		if err := atomicfile.Write(file, schema.Source()); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s; name it in a manifest's first line: # yaml-language-server: $schema=./%s\n", file, filepath.ToSlash(filepath.Base(file)))
		return nil
	}
}

// localSchema is the file init --local-schema writes beside the manifest.
const localSchema = "site.schema.json"

func initCommand(fset *pflag.FlagSet) runner {
	var file string
	var force, local bool
	fset.StringVarP(&file, "file", "f", "site.yaml", "where to write (default site.yaml; - for stdout)")
	fset.BoolVar(&force, "force", false, "overwrite an existing file")
	fset.BoolVar(&local, "local-schema", false, "also write site.schema.json beside the manifest and name it relatively, for editors offline")
	cli.SetArgs(fset, "file", "FILE")
	return func(e *call, fset *pflag.FlagSet) error {
		stdout := e.stdout
		if fset.NArg() > 0 {
			return usagef("init: unexpected argument %q", fset.Arg(0))
		}
		starter := templates.Starter()
		if local {
			starter = templates.StarterWithSchema("./" + localSchema)
		}
		if file == "-" {
			if local {
				return usagef("init: --local-schema needs a file to write beside, not -f -")
			}
			_, err := stdout.Write(starter)
			return err
		}
		if err := create(file, starter, force); err != nil {
			return err
		}
		wrote := file
		if local {
			sf := filepath.Join(filepath.Dir(file), localSchema)
			if err := create(sf, schema.Source(), force); err != nil {
				return err
			}
			wrote += " and " + sf
		}
		fmt.Fprintf(stdout, "wrote %s; next: discgen build -f %s -o public\n", wrote, file)
		return nil
	}
}

// create writes a new file, or overwrites one with force.
func create(file string, data []byte, force bool) error {
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
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
