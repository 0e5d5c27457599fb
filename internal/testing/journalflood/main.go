//go:build unix

// Command journalflood fills a directory with what a hostile tenant can
// put in its own state directory's journal/, for the measurements of
// BENCHMARKS.md ("A tenant's journal directory, flooded"):
//
//	go run ./internal/testing/journalflood -dir DIR -n 100000 -kind new
//
// It makes n entries with names of 200 bytes: with -kind new, empty files
// named <i>…x.new (the files a killed build leaves before its rename);
// with -kind jnl, entries named <i>…x.jnl, every other one a FIFO and the
// rest empty files. Each is given to the directory's owner. It is no test
// and runs in no tier: publish/testdata/journal-flood.sh runs it.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

func main() {
	dir := flag.String("dir", "", "the journal directory to fill")
	n := flag.Int("n", 100000, "how many entries")
	kind := flag.String("kind", "new", "new: .new files; jnl: .jnl entries, half of them FIFOs")
	flag.Parse()
	if err := fill(*dir, *n, *kind); err != nil {
		fmt.Fprintln(os.Stderr, "journalflood:", err)
		os.Exit(1)
	}
}

func fill(dir string, n int, kind string) error {
	if kind != "new" && kind != "jnl" {
		return fmt.Errorf("-kind %q: new or jnl", kind)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: not a directory", dir)
	}
	st := fi.Sys().(*syscall.Stat_t)
	ext := "." + kind
	for i := range n {
		s := fmt.Sprintf("%08d", i)
		p := filepath.Join(dir, s+strings.Repeat("x", 200-len(s)-len(ext))+ext)
		if kind == "jnl" && i%2 == 0 {
			err = syscall.Mkfifo(p, 0o600)
		} else {
			var f *os.File
			if f, err = os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
				err = f.Close()
			}
		}
		if err == nil {
			err = os.Lchown(p, int(st.Uid), int(st.Gid))
		}
		if err != nil {
			return err
		}
	}
	return nil
}
