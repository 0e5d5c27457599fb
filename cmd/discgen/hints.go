package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/discgen/discgen/internal/editdist"
	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/output"
)

// closestCommand returns the command name s most likely misspells, or ""
// (editdist.Closest).
func closestCommand(s string) string {
	names := append([]string{"version", "help"}, commandNames()...)
	slices.Sort(names)
	return editdist.Closest(s, names)
}

func commandNames() []string {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	return names
}

// hintMissingManifest suggests discgen init when the manifest does not
// exist (the error itself is already reported as a diagnostic).
func hintMissingManifest(stderr io.Writer, file string) {
	if _, err := os.Stat(file); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	fmt.Fprintf(stderr, "discgen: hint: no manifest at %s: run 'discgen init' to write a starter one, or name yours with -f\n", file)
}

// hugoConfigs are the configuration files Hugo reads from a site's root,
// newest name first.
var hugoConfigs = []string{"hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "config.toml", "config.yaml", "config.yml", "config.json"}

// hugoRobots matches enableRobotsTXT set to true in TOML, YAML or JSON.
var hugoRobots = lazyre.New(`(?im)^\s*"?enableRobotsTXT"?\s*[=:]\s*true\b`)

// siteGeneratorHints returns hints for problems a site generator causes:
// Hugo with enableRobotsTXT = true writes its own public/robots.txt, which
// discgen then refuses to take over. The Hugo site is looked for in the
// output directory's parent (public/ sits in the site's root).
func siteGeneratorHints(pe *output.ProblemError) []string {
	foreignRobots := slices.ContainsFunc(pe.Problems, func(p output.Problem) bool {
		return p.Path == "robots.txt" && (p.Kind == output.Foreign || p.Kind == output.Modified)
	})
	if !foreignRobots {
		return nil
	}
	site := filepath.Dir(filepath.Clean(pe.Root))
	for _, name := range hugoConfigs {
		data, err := os.ReadFile(filepath.Join(site, name))
		if err != nil || !hugoRobots.Match(data) {
			continue
		}
		cfg := filepath.Join(site, name)
		return []string{fmt.Sprintf("Hugo wrote %s (enableRobotsTXT is true in %s): set enableRobotsTXT = false there so that discgen writes it, or pass --replace",
			filepath.Join(pe.Root, "robots.txt"), cfg)}
	}
	return nil
}
