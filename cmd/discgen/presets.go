package main

import (
	"fmt"
	"github.com/discgen/discgen/internal/cli"
	"github.com/spf13/pflag"
	"io"
	"strings"
	"time"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/internal/editdist"
	"github.com/discgen/discgen/internal/lazyre"
)

func presetsCommand(fs *pflag.FlagSet) runner {
	var format, nowFlag, list, commit, date, out, ranges, copy, service string
	fs.StringVar(&format, "format", "text", "text (default) or json")
	fs.StringVar(&nowFlag, "now", "", "the time the catalogue's age is counted to")
	fs.StringVar(&list, "import", "", "a robots.json of the ai.robots.txt list")
	fs.StringVar(&commit, "commit", "", "the list's git commit (with --import)")
	fs.StringVar(&date, "date", "", "the day of that commit (with --import), or the day the ranges file was downloaded (with --import-ranges), YYYY-MM-DD")
	fs.StringVarP(&out, "output", "o", "", "write the refreshed catalogue (with --import or --import-ranges)")
	fs.StringVar(&ranges, "import-ranges", "", "a downloaded ranges file for a list of crawlers/ranges.json")
	fs.StringVar(&copy, "copy", "", "where the file was downloaded from (with --import-ranges)")
	fs.StringVar(&service, "service", "", "take only the prefixes the file attributes to this service (with --import-ranges)")
	cli.SetArgs(fs, "format", "FORMAT", "now", "TIME", "import", "FILE", "commit", "HASH", "date", "DAY", "output", "FILE", "import-ranges", "LIST=FILE", "copy", "TEXT", "service", "NAME")
	return func(e *call, fs *pflag.FlagSet) error {
		stdout, stderr := e.stdout, e.stderr
		if ranges != "" {
			if fs.NArg() > 0 || list != "" || commit != "" {
				return usagef("presets: --import-ranges takes no preset names, --import or --commit")
			}
			return importRanges(ranges, service, copy, date, out, stdout)
		}
		if copy != "" || service != "" {
			return usagef("presets: --copy and --service go with --import-ranges")
		}
		if list != "" {
			if fs.NArg() > 0 {
				return usagef("presets: --import takes no preset names")
			}
			return importPresets(list, commit, date, out, stdout)
		}
		if commit != "" || date != "" || out != "" {
			return usagef("presets: --commit, --date and -o go with --import")
		}
		if err := checkFormat(format, formats["presets"]...); err != nil {
			return err
		}
		now, err := parseNow(nowFlag)
		if err != nil {
			return err
		}
		cat := crawlers.Default()
		want := fs.Args()
		if len(want) == 0 {
			want = cat.Presets()
		}
		for _, p := range want {
			if _, ok := cat.Preset(p); !ok {
				ue := &usageError{msg: fmt.Sprintf("presets: unknown preset %q", p)}
				if s := editdist.Closest(p, cat.Presets()); s != "" {
					ue.hint = fmt.Sprintf("did you mean %s?", s)
				}
				return ue
			}
		}
		for _, s := range crawlers.StaleLists(now) {
			fmt.Fprintf(stderr, "discgen: warning: %s\n", s)
		}
		if format == "json" {
			return cat.WritePresetsJSON(stdout, want)
		}
		return cat.WritePresets(stdout, want)
	}
}

// importPresets (--import) and importRanges (--import-ranges, LIST=FILE)
// check their flags and show what a downloaded file changes in the
// shipped catalogue (crawlers.UpdateCatalogue, crawlers.UpdateRanges);
// with -o, they write the refreshed catalogue.
func importPresets(file, commit, date, out string, stdout io.Writer) error {
	if !commitRE.MatchString(commit) {
		return usagef("presets: --import needs --commit, the list's git commit (7 to 40 hex digits)")
	}
	if _, err := time.Parse(time.DateOnly, date); err != nil {
		return usagef("presets: --import needs --date, the list commit's day as YYYY-MM-DD")
	}
	u, err := crawlers.UpdateCatalogue(file, crawlers.Source{Commit: commit, Date: date})
	return saveUpdate(u, err, out, stdout)
}

func importRanges(spec, service, copy, date, out string, stdout io.Writer) error {
	key, file, ok := strings.Cut(spec, "=")
	if !ok || key == "" || file == "" {
		return usagef("presets: --import-ranges takes LIST=FILE (lists: %s)", strings.Join(crawlers.DefaultRanges().Keys(), ", "))
	}
	if _, err := time.Parse(time.DateOnly, date); err != nil {
		return usagef("presets: --import-ranges needs --date, the day the file was downloaded, as YYYY-MM-DD")
	}
	u, err := crawlers.UpdateRanges(key, file, service, date, copy)
	return saveUpdate(u, err, out, stdout)
}

func saveUpdate(u *crawlers.Update, err error, out string, stdout io.Writer) error {
	if err != nil {
		return err
	}
	if err := u.WriteDiff(stdout); err != nil || out == "" {
		return err
	}
	return u.Save(out)
}

var commitRE = lazyre.New(`^[0-9a-f]{7,40}$`)
