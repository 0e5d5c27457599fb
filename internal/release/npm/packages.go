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

// platform is one platform package's binary.
type platform struct {
	goos, goarch string
	bin          []byte
}

// write writes the packages of the release in dist into out and returns
// their directories, the main package's first.
func write(distDir, out string) ([]string, error) {
	as, err := dist.Archives(distDir)
	if err != nil {
		return nil, err
	}
	var license []byte
	var ps []platform
	for _, a := range as {
		bin, lic, err := dist.Unpack(distDir, a)
		if err != nil {
			return nil, err
		}
		if license == nil {
			license = lic
		}
		ps = append(ps, platform{a.GOOS, a.GOARCH, bin})
	}
	return writeAll(as[0].Version, ps, license, out)
}

// writeLocal writes the main package and one platform package, for goos
// and goarch, around a binary built here: the short way to npm packages
// from a clone for one's own platform, without a release.
func writeLocal(binFile, version, goos, goarch string, license []byte, out string) ([]string, error) {
	if nodeOS[goos] == "" || nodeArch[goarch] == "" {
		return nil, fmt.Errorf("%s/%s: npm packages are made for linux, darwin and windows on amd64 and arm64", goos, goarch)
	}
	bin, err := os.ReadFile(binFile)
	if err != nil {
		return nil, err
	}
	if len(bin) < 4 || (!bytes.HasPrefix(bin, []byte("\x7fELF")) && !bytes.HasPrefix(bin, []byte("MZ")) && !isMachO(bin)) {
		return nil, fmt.Errorf("%s is not an executable", binFile)
	}
	return writeAll(version, []platform{{goos, goarch, bin}}, license, out)
}

// isMachO reports whether data starts as a 64-bit Mach-O executable does.
func isMachO(data []byte) bool {
	return bytes.HasPrefix(data, []byte{0xcf, 0xfa, 0xed, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xed, 0xfa, 0xcf})
}

// writeAll writes the main package and one package per platform into out
// and returns their directories, the main package's first.
func writeAll(version string, ps []platform, license []byte, out string) ([]string, error) {
	main := packageJSON{
		Name: "discgen", Version: version, License: "Apache-2.0", Repository: repository,
		Description:          "Publish a site's web discovery files (robots.txt, autodisc/, /.well-known/) from one YAML manifest",
		Bin:                  map[string]string{"discgen": "bin/discgen.js"},
		Files:                []string{"bin/discgen.js", "README.md"},
		OptionalDependencies: map[string]string{},
		Engines:              map[string]string{"node": ">=18"},
	}
	dirs := []string{filepath.Join(out, "discgen")}
	for _, a := range ps {
		plat := nodeOS[a.goos] + "-" + nodeArch[a.goarch]
		name := "@discgen/" + plat
		exe := "bin/discgen"
		if a.goos == "windows" {
			exe += ".exe"
		}
		p := packageJSON{
			Name: name, Version: version, License: "Apache-2.0", Repository: repository,
			Description: fmt.Sprintf("The discgen binary for %s %s (installed by the discgen package)", a.goos, a.goarch),
			OS:          []string{nodeOS[a.goos]}, CPU: []string{nodeArch[a.goarch]},
			PreferUnplugged: true, Files: []string{exe, "README.md"},
		}
		dir := filepath.Join(out, plat)
		readme := fmt.Sprintf("# %s\n\nThe discgen %s binary for %s %s. Install the `discgen` package, which depends on this one: %s\n", name, version, a.goos, a.goarch, repository)
		if err := writePackage(dir, p, readme, license, map[string][]byte{exe: a.bin}); err != nil {
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
