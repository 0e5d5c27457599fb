package main

import (
	"fmt"
	"github.com/discgen/discgen/internal/cli"
	"github.com/spf13/pflag"
	"slices"
	"strings"

	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/lint"
)

// maxKeyFile bounds the public key file of lint --key.
const maxKeyFile = 1 << 20

func lintCommand(fs *pflag.FlagSet) runner {
	var format, nowFlag, keyFile, typeFlag string
	fs.StringVar(&format, "format", "text", "text (default), json, or github")
	fs.StringVar(&nowFlag, "now", "", "the time security.txt's Expires is checked against (as for build)")
	fs.StringVar(&keyFile, "key", "", "verify the OpenPGP signature of each security.txt with this public key (gpg --export --armor KEYID)")
	fs.StringVar(&typeFlag, "type", "", "lint every file as KIND: "+kindList())
	cli.SetArgs(fs, "format", "FORMAT", "now", "TIME", "key", "PUBKEY", "type", "KIND")
	return func(e *call, fs *pflag.FlagSet) error {
		stdout, stderr := e.stdout, e.stderr
		if fs.NArg() == 0 {
			return usagef("lint: give at least one file")
		}
		if err := checkFormat(format, formats["lint"]...); err != nil {
			return err
		}
		var kind lint.Kind
		if typeFlag != "" {
			k, ok := lint.ParseKind(typeFlag)
			if !ok {
				return usagef("lint: --type %q is not one of %s", typeFlag, kindList())
			}
			kind = k
		}
		opt := lint.Options{}
		var err error
		if opt.Now, err = parseNow(nowFlag); err != nil {
			return err
		}
		srcs, list, err := lint.Read(fs.Args(), kind, func(name string, need int64) error {
			return e.roomFor(need, "lint of "+name)
		})
		if err != nil {
			return err
		}
		if keyFile != "" {
			if !slices.ContainsFunc(srcs, func(s lint.Source) bool { return s.Kind == lint.SecurityTxt }) {
				return usagef("lint: --key verifies security.txt files; none of the files given reads as one (pass --type security.txt to lint them as such)")
			}
			if opt.Key, err = limited.ReadFile(keyFile, maxKeyFile); err != nil {
				return fmt.Errorf("--key %s: cannot read: %v", keyFile, err)
			}
		}
		list.Append(lint.Sources(srcs, opt))
		list.Sort()
		w := stderr
		if format == "json" {
			w = stdout
		}
		list.Write(w, format)
		if list.HasErrors() {
			return errFailed
		}
		return nil
	}
}

// kindList names the values of lint --type.
func kindList() string {
	kinds := lint.Kinds()
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}
