package lazyre

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// No package of the module compiles a regular expression when it is
// initialised: a package-level regexp.MustCompile costs every discgen
// command, `discgen version` included. internal/release, a tool of the
// release rather than a part of discgen, and tests are left out.
func TestNoRegexpAtInit(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "internal/release" || rel == "internal/testing" || strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		n++
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			ast.Inspect(g, func(x ast.Node) bool {
				if _, ok := x.(*ast.FuncLit); ok {
					return false // runs when called, not at initialisation
				}
				sel, ok := x.(*ast.SelectorExpr)
				if ok && (sel.Sel.Name == "MustCompile" || sel.Sel.Name == "Compile") {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "regexp" {
						t.Errorf("%s: regexp.%s at initialisation: use lazyre.New", fset.Position(sel.Pos()), sel.Sel.Name)
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("read %d Go files of the module; want the whole module", n)
	}
}
