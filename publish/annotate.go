package publish

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/output"
)

// What is not a manifest diagnostic, worded as diagnostics on the files on
// disk, so that every format of diag prints them (GitHub Actions puts an
// annotation on the file): the output a check found stale, and the
// problems that stop a write.

// StaleDiags returns an error for each file of the root shown as show that
// a check found stale (ch), at the first line that differs.
func StaleDiags(show string, ch *output.Changes) diag.List {
	var l diag.List
	for _, c := range ch.List {
		var what string
		switch c.Kind {
		case output.Add:
			what = "missing: discgen build would write it"
		case output.Update:
			what = "stale: discgen build would rewrite it"
		case output.Remove:
			what = "stale: discgen no longer produces it and discgen build would remove it"
		default:
			continue
		}
		line, after := c.FirstLine()
		switch {
		case line > 0 && after:
			what = fmt.Sprintf("stale after line %d: discgen build would rewrite it", line)
		case line > 0:
			what = fmt.Sprintf("stale from line %d: discgen build would rewrite it", line)
		}
		pos := diag.Pos{File: filepath.Join(show, filepath.FromSlash(c.Path)), Line: line, Col: 1}
		l.Add(diag.Diagnostic{Pos: pos, Severity: diag.Error, Message: what + "; run discgen build and commit the result"})
	}
	return l
}

// ProblemDiags returns an error for each problem of pe, its hint (and the
// site generator's, for robots.txt: SiteGeneratorHints) on lines after it.
func ProblemDiags(pe *output.ProblemError) diag.List {
	var l diag.List
	extra := SiteGeneratorHints(pe)
	for _, p := range pe.Problems {
		msg := p.Message
		if p.Path == "robots.txt" {
			for _, h := range extra {
				msg += "\nhint: " + h
			}
		}
		if p.Hint != "" {
			msg += "\nhint: " + p.Hint
		}
		l.Add(diag.Diagnostic{Pos: diag.Pos{File: p.File}, Severity: diag.Error, Message: msg})
	}
	return l
}

// hugoConfigs are the configuration files Hugo reads from a site's root,
// newest name first.
var hugoConfigs = [...]string{"hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "config.toml", "config.yaml", "config.yml", "config.json"}

// maxHugoConfig bounds the read of a Hugo configuration file, which is
// the operator's, read as the manifest is: a regular file, whole.
const maxHugoConfig = 4 << 20

// hugoRobots matches enableRobotsTXT set to true in TOML, YAML or JSON.
var hugoRobots = lazyre.New(`(?im)^\s*"?enableRobotsTXT"?\s*[=:]\s*true\b`)

// SiteGeneratorHints returns hints for problems a site generator causes:
// Hugo with enableRobotsTXT = true writes its own public/robots.txt, which
// discgen then refuses to take over. The Hugo site is looked for in the
// output directory's parent (public/ sits in the site's root).
func SiteGeneratorHints(pe *output.ProblemError) []string {
	foreignRobots := slices.ContainsFunc(pe.Problems, func(p output.Problem) bool {
		return p.Path == "robots.txt" && (p.Kind == output.Foreign || p.Kind == output.Modified)
	})
	if !foreignRobots {
		return nil
	}
	site := filepath.Dir(filepath.Clean(pe.Root))
	for _, name := range hugoConfigs {
		data, err := limited.ReadFile(filepath.Join(site, name), maxHugoConfig)
		if err != nil || !hugoRobots.Match(data) {
			continue
		}
		cfg := filepath.Join(site, name)
		return []string{fmt.Sprintf("Hugo wrote %s (enableRobotsTXT is true in %s): set enableRobotsTXT = false there so that discgen writes it, or pass --replace",
			filepath.Join(pe.Root, "robots.txt"), cfg)}
	}
	return nil
}
