package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/discgen/discgen/internal/release/dist"
)

// Node.js's names for Go's operating systems and architectures.
var (
	nodeOS   = map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32"}
	nodeArch = map[string]string{"amd64": "x64", "arm64": "arm64"}
)

const repository = "https://github.com/discgen/discgen"

type packageJSON struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	License              string            `json:"license"`
	Repository           string            `json:"repository"`
	Bin                  map[string]string `json:"bin,omitempty"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	PreferUnplugged      bool              `json:"preferUnplugged,omitempty"`
	Files                []string          `json:"files"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
	Engines              map[string]string `json:"engines,omitempty"`
}

// write writes the packages of the release in dist into out and returns
// their directories, the main package's first.
func write(distDir, out string) ([]string, error) {
	as, err := dist.Archives(distDir)
	if err != nil {
		return nil, err
	}
	version := as[0].Version
	var license []byte
	main := packageJSON{
		Name: "discgen", Version: version, License: "Apache-2.0", Repository: repository,
		Description:          "Publish a site's web discovery files (robots.txt, autodisc/, /.well-known/) from one YAML manifest",
		Bin:                  map[string]string{"discgen": "bin/discgen.js"},
		Files:                []string{"bin/discgen.js", "README.md"},
		OptionalDependencies: map[string]string{},
		Engines:              map[string]string{"node": ">=18"},
	}
	dirs := []string{filepath.Join(out, "discgen")}
	for _, a := range as {
		bin, lic, err := dist.Unpack(distDir, a)
		if err != nil {
			return nil, err
		}
		if license == nil {
			license = lic
		}
		plat := nodeOS[a.GOOS] + "-" + nodeArch[a.GOARCH]
		name := "@discgen/" + plat
		exe := "bin/discgen"
		if a.GOOS == "windows" {
			exe += ".exe"
		}
		p := packageJSON{
			Name: name, Version: version, License: "Apache-2.0", Repository: repository,
			Description: fmt.Sprintf("The discgen binary for %s %s (installed by the discgen package)", a.GOOS, a.GOARCH),
			OS:          []string{nodeOS[a.GOOS]}, CPU: []string{nodeArch[a.GOARCH]},
			PreferUnplugged: true, Files: []string{exe, "README.md"},
		}
		dir := filepath.Join(out, plat)
		readme := fmt.Sprintf("# %s\n\nThe discgen %s binary for %s %s. Install the `discgen` package, which depends on this one: %s\n", name, version, a.GOOS, a.GOARCH, repository)
		if err := writePackage(dir, p, readme, lic, map[string][]byte{exe: bin}); err != nil {
			return nil, err
		}
		main.OptionalDependencies[name] = version
		dirs = append(dirs, dir)
	}
	readme := "# discgen\n\nPublishes a site's web discovery files (robots.txt, autodisc/, /.well-known/security.txt) from one YAML manifest. " +
		"This package runs the discgen binary of the optional dependency for your platform; nothing is downloaded at install time.\n\n" +
		"```sh\nnpm install -D discgen\nnpx discgen init\n```\n\nthen in package.json: `\"postbuild\": \"discgen build -f site.yaml -o _site\"`. See " + repository + "\n"
	if err := writePackage(dirs[0], main, readme, license, map[string][]byte{"bin/discgen.js": []byte(shim)}); err != nil {
		return nil, err
	}
	return dirs, nil
}

// writePackage writes one package directory: package.json, README.md,
// LICENSE when there is one, and files (executable).
func writePackage(dir string, p packageJSON, readme string, license []byte, files map[string][]byte) error {
	if license != nil {
		p.Files = append(p.Files, "LICENSE")
	}
	var pj bytes.Buffer
	enc := json.NewEncoder(&pj)
	enc.SetEscapeHTML(false) // ">=18", not "\u003e=18"
	enc.SetIndent("", "  ")
	if err := enc.Encode(p); err != nil {
		return err
	}
	all := map[string][]byte{"package.json": pj.Bytes(), "README.md": []byte(readme)}
	if license != nil {
		all["LICENSE"] = license
	}
	for name, data := range all {
		if err := writeFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	for name, data := range files {
		if err := writeFile(filepath.Join(dir, name), data, 0o755); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(name string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(name, data, mode); err != nil {
		return err
	}
	return os.Chmod(name, mode) // whatever the umask
}
