package layout

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// unixAllowed lists the packages (directories relative to the module root)
// that may import golang.org/x/sys/unix, with what they use it for. Raw
// system calls on files belong to the confined filesystem layer alone,
// package confined, so that its confinement can be reviewed in one place
// (its own TestCallersTouchNoPath keeps output and publish to it). The
// other entries use unix for no file operation.
var unixAllowed = map[string]string{
	"internal/confined":   "the confined filesystem layer: openat2, renameat, syncfs",
	"internal/statedir":   "the state directory's files: O_NOFOLLOW|O_NONBLOCK opens, fstat, flock",
	"internal/eintr":      "retries a call a signal interrupted; no file operation of its own",
	"internal/rawstat":    "converts a raw fstatat result to fs.FileMode for the layer; it opens nothing",
	"internal/hostlimits": "resource limits (getrlimit, setrlimit), no file operation",
	"internal/release":    "its image test reads the open-file limit, no file operation",
}

// Levels of the packages under internal/. A package there may import,
// of this module, only packages under internal/ at its own level or below;
// every package outside internal/ is above them all. A _test.go file may
// also import the test helpers.
const (
	ground     = iota // small helpers any package may use
	testHelper        // helpers for tests, imported by _test.go files only
	release           // the release's tools and its end-to-end tests
)

var internalLevel = map[string]int{
	"internal/atomicfile":           ground,
	"internal/connectto":            ground,
	"internal/bug":                  ground,
	"internal/cli":                  ground,
	"internal/confined":             ground,
	"internal/eintr":                ground,
	"internal/statedir":             ground,
	"internal/editdist":             ground,
	"internal/gcpolicy":             ground,
	"internal/hostlimits":           ground,
	"internal/lazyre":               ground,
	"internal/limited":              ground,
	"internal/rawstat":              ground,
	"internal/rfc3986":              ground,
	"internal/rfc8615":              ground,
	"internal/layout":               ground,
	"internal/seal":                 ground,
	"internal/testing/journalflood": testHelper,
	"internal/testing/livetest":     testHelper,
	"internal/testing/otheruser":    testHelper,
	"internal/testing/testcorpus":   testHelper,
	"internal/testing/testenv":      testHelper,
	"internal/testing/testfs":       testHelper,
	"internal/release":              release,
	"internal/release/dist":         release,
	"internal/release/image":        release,
	"internal/release/npm":          release,
	"internal/release/sbom":         release,
}

// testHelpers is the folder of the helpers that only tests may import.
const testHelpers = "internal/testing"

// goFile is one Go file's import lines.
type goFile struct {
	name    string // slash path from the module root
	dir     string // its package's directory, from the module root
	test    bool
	imports []imp
}

type imp struct {
	path string
	line int
}

// module reads the module root (two levels up) and its path from go.mod,
// and parses the imports of every Go file below it, skipping testdata,
// vendor, node_modules and folders whose name starts with "." or "_", as
// the go command does.
func module(t *testing.T) (modPath string, files []goFile) {
	t.Helper()
	root := filepath.Join("..", "..")
	f, err := os.Open(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "module "); ok {
			modPath = strings.TrimSpace(rest)
			break
		}
	}
	if modPath == "" {
		t.Fatal("go.mod names no module")
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || name == "vendor" || name == "node_modules" ||
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		af, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		g := goFile{name: rel, dir: path.Dir(rel), test: strings.HasSuffix(name, "_test.go")}
		for _, is := range af.Imports {
			ip, err := strconv.Unquote(is.Path.Value)
			if err != nil {
				return err
			}
			g.imports = append(g.imports, imp{ip, fset.Position(is.Pos()).Line})
		}
		files = append(files, g)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A walk that found next to nothing would check nothing.
	if len(files) < 200 {
		t.Fatalf("found %d Go files under %s, want the module's hundreds", len(files), root)
	}
	return modPath, files
}

func TestUnixImports(t *testing.T) {
	_, files := module(t)
	used := map[string]bool{}
	for _, f := range files {
		for _, im := range f.imports {
			if im.path != "golang.org/x/sys/unix" {
				continue
			}
			if _, ok := unixAllowed[f.dir]; !ok {
				t.Errorf("%s:%d imports golang.org/x/sys/unix: raw system calls on files belong to the confined filesystem layer; add the package to unixAllowed only for a use that is no file operation", f.name, im.line)
			}
			used[f.dir] = true
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(unixAllowed)) {
		if !used[dir] {
			t.Errorf("unixAllowed lists %s, which no longer imports golang.org/x/sys/unix: remove it from the list", dir)
		}
	}
}

func TestInternalLevels(t *testing.T) {
	modPath, files := module(t)
	seen := map[string]bool{}
	for _, f := range files {
		if !strings.HasPrefix(f.dir+"/", "internal/") {
			continue
		}
		level, ok := internalLevel[f.dir]
		if !ok {
			if !seen[f.dir] {
				t.Errorf("%s: a package under internal/ with no level: add it to internalLevel", f.dir)
			}
			seen[f.dir] = true
			continue
		}
		seen[f.dir] = true
		for _, im := range f.imports {
			dep, ok := strings.CutPrefix(im.path, modPath+"/")
			if !ok {
				continue // the standard library or another module
			}
			depLevel, internal := internalLevel[dep]
			switch {
			case !internal:
				t.Errorf("%s:%d imports %s: a package under internal/ may not import a package above it", f.name, im.line, dep)
			case f.test && depLevel == testHelper:
				// A test may use the test helpers.
			case depLevel > level:
				t.Errorf("%s:%d imports %s, a level above its own (%d > %d): see internalLevel", f.name, im.line, dep, depLevel, level)
			}
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(internalLevel)) {
		if !seen[dir] {
			t.Errorf("internalLevel lists %s, which holds no Go file: remove it from the list", dir)
		}
	}
}

func TestTestHelpersOnlyInTests(t *testing.T) {
	modPath, files := module(t)
	prefix := modPath + "/" + testHelpers + "/"
	for _, f := range files {
		if f.test || strings.HasPrefix(f.dir+"/", testHelpers+"/") {
			continue
		}
		for _, im := range f.imports {
			if strings.HasPrefix(im.path, prefix) {
				t.Errorf("%s:%d imports %s: the helpers under %s/ are for _test.go files only", f.name, im.line, im.path, testHelpers)
			}
		}
	}
}

// TestLayoutTable checks that the layout table of CONTRIBUTING.md has one row for
// each package of the module, and none for a package that is gone.
func TestLayoutTable(t *testing.T) {
	_, files := module(t)
	dirs := map[string]bool{}
	for _, f := range files {
		dirs[f.dir] = true
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "\n## Layout\n")
	if !ok {
		t.Fatal("CONTRIBUTING.md has no \"## Layout\" section")
	}
	rows := map[string]bool{}
	for line := range strings.Lines(table) {
		if strings.HasPrefix(line, "## ") {
			break
		}
		name, ok := strings.CutPrefix(line, "| `")
		if !ok {
			continue
		}
		name, _, ok = strings.Cut(name, "` |")
		if !ok {
			t.Errorf("CONTRIBUTING.md layout row %q: want one package a row", strings.TrimSpace(line))
			continue
		}
		if rows[name] {
			t.Errorf("CONTRIBUTING.md layout table: %s has two rows", name)
		}
		rows[name] = true
		if !dirs[name] {
			t.Errorf("CONTRIBUTING.md layout table: %s is not a package of the module", name)
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		if dir != "." && !rows[dir] {
			t.Errorf("CONTRIBUTING.md layout table: no row for %s", dir)
		}
	}
}

// The rooms of the discovery-file kinds (CONTRIBUTING.md, "Adding a
// discovery file"). Arrows run one way: a kind imports only the rooms
// below it (kindFloor and internal/), never a stage nor another kind; the
// kit, what the kinds share, imports only the floor; the registry imports
// the kinds and the kit; a package outside kinds/ reaches a kind through
// the registry and the kit alone (its tests may import a kind).
const (
	kindsDir     = "kinds"
	kitDir       = "kinds/kit"
	registryDir  = "kinds/registry"
	internalRoom = "internal/"
)

// kindFloor is what a kind and the kit may import of the module besides
// internal/: diagnostics, the manifest's typed model and positions, and
// OpenPGP cleartext signatures (security.txt's).
var kindFloor = map[string]bool{"diag": true, "manifest": true, "cleartext": true}

// kindImporters lists the packages outside kinds/ that import a kind
// itself, not through the registry, with the kind and the reason.
var kindImporters = map[string]string{
	"lint": "kinds/securitytxt: Detect tells a security.txt from a robots.txt by its field names, and lint checks a signature with a key",
}

func TestKindsArrows(t *testing.T) {
	modPath, files := module(t)
	kinds := 0
	excepted := map[string]bool{}
	for _, f := range files {
		inKinds := strings.HasPrefix(f.dir+"/", kindsDir+"/")
		if inKinds && f.dir != kitDir && f.dir != registryDir && !f.test {
			kinds++
		}
		for _, im := range f.imports {
			dep, ok := strings.CutPrefix(im.path, modPath+"/")
			if !ok {
				continue
			}
			depKind := strings.HasPrefix(dep+"/", kindsDir+"/")
			var why string
			switch {
			case f.test && f.dir == dep:
			case f.dir == registryDir:
				if !depKind && !(f.test && kindFloor[dep]) {
					why = "the registry imports the kinds and the kit only"
				}
			case inKinds:
				// A kind, or the kit.
				switch {
				case kindFloor[dep] || strings.HasPrefix(dep, internalRoom):
				case dep == kitDir && f.dir != kitDir:
				default:
					why = "a kind imports only the kit, diag, manifest and internal/: a helper two kinds share goes down into the kit"
				}
			case depKind && dep != kitDir && dep != registryDir && !f.test:
				if reason, ok := kindImporters[f.dir]; !ok || !strings.HasPrefix(reason, dep+":") {
					why = "a stage reaches a kind through kinds/registry and kinds/kit"
				} else {
					excepted[f.dir] = true
				}
			}
			if why != "" {
				t.Errorf("%s:%d imports %s: %s", f.name, im.line, dep, why)
			}
		}
	}
	if kinds == 0 {
		t.Fatalf("found no kind under %s/", kindsDir)
	}
	for _, dir := range slices.Sorted(maps.Keys(kindImporters)) {
		if !excepted[dir] {
			t.Errorf("kindImporters lists %s, which no longer imports a kind: remove it from the list", dir)
		}
	}
}
