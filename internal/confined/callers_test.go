package confined

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// callers are the packages that reach the filesystem only through this
// one, as directories relative to the module root.
var callers = []string{"output", "publish"}

// handleMethods are the methods a caller may call on an *os.File or
// *os.Root this package gave it (see the package doc): none opens,
// creates, renames or removes anything.
var handleMethods = map[string]bool{
	"Close": true, "Stat": true, "Sync": true, "Write": true,
	"Readdirnames": true, "Seek": true, "Name": true, "Fd": true,
}

// notFileOps are the functions of os a caller may call: they ask who runs
// discgen, or classify an error, and touch no file.
var notFileOps = map[string]bool{
	"Geteuid": true, "Getuid": true, "Getegid": true, "Getgid": true, "Getgroups": true, "Getpid": true,
	"Getenv": true, "LookupEnv": true, "IsNotExist": true, "IsExist": true, "IsPermission": true,
}

// TestCallersTouchNoPath type-checks the non-test files of output and
// publish and fails on any use (a call, or a function taken as a value) of
// a function of os (but notFileOps), syscall or golang.org/x/sys/unix, on
// any method of *os.File or *os.Root other than handleMethods, and on any
// type error: every open, create, rename, removal, lock and flush of
// theirs goes through this package.
func TestCallersTouchNoPath(t *testing.T) {
	checked := 0
	for _, dir := range callers {
		found, n := checkCallers(t, filepath.Join("..", "..", dir))
		for _, f := range found {
			t.Error(f)
		}
		checked += n
	}
	// A check that resolved next to no call would check nothing.
	if checked < 500 {
		t.Fatalf("resolved %d uses of functions in %v, want thousands: were the packages type-checked?", checked, callers)
	}
}

// TestCallersCheckCatches runs the check on packages that break the rule
// in ways a syntactic check misses, and on one it cannot type-check.
func TestCallersCheckCatches(t *testing.T) {
	found, _ := checkCallers(t, filepath.Join("testdata", "callers", "sneaky"))
	got := strings.Join(found, "\n")
	for _, want := range []string{"os.Remove", "os.Rename", "*os.File.Chmod", "*os.File.Truncate"} {
		if !strings.Contains(got, want+":") {
			t.Errorf("the check missed %s in testdata/callers/sneaky; it found:\n%s", want, got)
		}
	}
	if n := len(found); n != 4 {
		t.Errorf("%d findings in testdata/callers/sneaky, want 4:\n%s", n, got)
	}
	found, _ = checkCallers(t, filepath.Join("testdata", "callers", "unloadable"))
	if got := strings.Join(found, "\n"); !strings.Contains(got, "example.com/no/such/package") {
		t.Errorf("the check of a package with an import it cannot load reported no type error; it found:\n%s", got)
	}
}

// exportData returns a lookup of the compiler's export data for the
// packages imports and their dependencies, which go list builds (from the
// build cache, when warm): type-checking from source takes seconds more.
// A package go list cannot load has none, and its import is a type error.
func exportData(t *testing.T, imports []string) func(path string) (io.ReadCloser, error) {
	t.Helper()
	gobin := testenv.NeedsTool(t, "go", "put the go command on PATH")
	out, err := exec.Command(gobin, append([]string{"list", "-e", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, imports...)...).Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	export := map[string]string{}
	for line := range strings.Lines(string(out)) {
		if path, file, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t"); ok && file != "" {
			export[path] = file
		}
	}
	return func(path string) (io.ReadCloser, error) {
		file, ok := export[path]
		if !ok {
			return nil, fmt.Errorf("go list gave no export data for %s", path)
		}
		return os.Open(file)
	}
}

// checkCallers type-checks the files of the package in dir that build on
// this platform, but its tests, and returns what breaks the rule: every
// use of a function of os (but notFileOps), syscall or
// golang.org/x/sys/unix, and of a method of os.File or os.Root but
// handleMethods, called or taken as a value, named or promoted through an
// embedded field. Type errors are findings too: what the checker cannot
// resolve, it cannot check. checked counts the resolved uses of functions
// and methods.
func checkCallers(t *testing.T, pkgDir string) (found []string, checked int) {
	t.Helper()
	bp, err := build.ImportDir(pkgDir, 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(pkgDir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{
		Importer: importer.ForCompiler(fset, "gc", exportData(t, bp.Imports)),
		Error: func(err error) {
			found = append(found, fmt.Sprintf("type error: %v", err))
		},
	}
	conf.Check(bp.ImportPath, fset, files, info)
	for id, obj := range info.Uses {
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() == nil {
			continue
		}
		checked++
		p := fn.Pkg().Path()
		if recv := fn.Signature().Recv(); recv != nil {
			rt := recv.Type()
			if ptr, ok := rt.(*types.Pointer); ok {
				rt = ptr.Elem()
			}
			named, ok := rt.(*types.Named)
			if ok && p == "os" && (named.Obj().Name() == "File" || named.Obj().Name() == "Root") && !handleMethods[fn.Name()] {
				found = append(found, fmt.Sprintf("%s: *os.%s.%s: a caller acts on a handle only through package confined", fset.Position(id.Pos()), named.Obj().Name(), fn.Name()))
			}
			continue
		}
		if slices.Contains([]string{"os", "syscall", "golang.org/x/sys/unix"}, p) && !(p == "os" && notFileOps[fn.Name()]) {
			found = append(found, fmt.Sprintf("%s: %s.%s: a caller reaches the filesystem only through package confined", fset.Position(id.Pos()), p, fn.Name()))
		}
	}
	slices.Sort(found)
	return found, checked
}
