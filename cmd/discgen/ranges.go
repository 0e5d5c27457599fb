package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/internal/atomicfile"
	"github.com/discgen/discgen/internal/limited"
)

// importRanges shows what a downloaded ranges file (KEY=FILE: a list of
// the range catalogue and the file read for it) changes in the shipped
// range catalogue and, with -o, writes the refreshed catalogue. It reads
// only the file: it never fetches. A file that attributes its prefixes to
// several services gives only service's (none chosen: an error naming
// them).
func importRanges(spec, service, copy, date, out string, stdout io.Writer) error {
	key, file, ok := strings.Cut(spec, "=")
	if !ok || key == "" || file == "" {
		return usagef("presets: --import-ranges takes LIST=FILE (lists: %s)", strings.Join(crawlers.DefaultRanges().Keys(), ", "))
	}
	if _, err := time.Parse(time.DateOnly, date); err != nil {
		return usagef("presets: --import-ranges needs --date, the day the file was downloaded, as YYYY-MM-DD")
	}
	data, err := limited.ReadFile(file, crawlers.MaxRangesSize)
	if err != nil {
		return fmt.Errorf("cannot read %s: %v", file, err)
	}
	rl, err := crawlers.ParseRanges(data)
	if err != nil {
		return fmt.Errorf("%s:%v", file, err)
	}
	if names := rl.ServiceNames(); service == "" && len(names) > 1 {
		return fmt.Errorf("%s: its prefixes are of several services (%s): name the one list %s is for with --service", file, strings.Join(names, ", "), key)
	}
	if service != "" {
		if rl, err = rl.Only(service); err != nil {
			return fmt.Errorf("%s: %v", file, err)
		}
	}
	next, diff, err := crawlers.ImportRanges(crawlers.DefaultRanges(), key, rl, date, copy)
	if err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	if err := diff.Write(stdout); err != nil {
		return err
	}
	if out == "" {
		return nil
	}
	return atomicfile.Write(out, crawlers.FormatRanges(next))
}
