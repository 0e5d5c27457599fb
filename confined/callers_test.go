package confined

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
// publish and fails on any call of a function of os (but notFileOps),
// syscall or golang.org/x/sys/unix, and on any method of *os.File or *os.Root other
// than handleMethods: every open, create, rename, removal, lock and flush
// of theirs goes through this package.
func TestCallersTouchNoPath(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks two packages from source")
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	checked := 0
	for _, dir := range callers {
		pkgDir := filepath.Join("..", dir)
		ents, err := os.ReadDir(pkgDir)
		if err != nil {
			t.Fatal(err)
		}
		var files []*ast.File
		for _, e := range ents {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(pkgDir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
		conf := types.Config{Importer: imp, Error: func(error) {}}
		conf.Check(dir, fset, files, info)
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				checked++
				if s, ok := info.Selections[sel]; ok {
					recv := types.TypeString(s.Recv(), nil)
					if (recv == "*os.File" || recv == "*os.Root") && !handleMethods[sel.Sel.Name] {
						t.Errorf("%s: %s.%s: a caller acts on a handle only through package confined", fset.Position(call.Pos()), recv, sel.Sel.Name)
					}
					return true
				}
				if fn, ok := info.Uses[sel.Sel].(*types.Func); ok && fn.Pkg() != nil {
					if p := fn.Pkg().Path(); slices.Contains([]string{"os", "syscall", "golang.org/x/sys/unix"}, p) && !(p == "os" && notFileOps[fn.Name()]) {
						t.Errorf("%s: %s.%s: a caller reaches the filesystem only through package confined", fset.Position(call.Pos()), p, fn.Name())
					}
				}
				return true
			})
		}
	}
	// A check that saw next to no call would check nothing.
	if checked < 500 {
		t.Fatalf("checked %d calls in %v, want thousands: were the packages parsed?", checked, callers)
	}
}
