package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoExportedMutableVars: no package but a command exports a variable
// other than a sentinel error (ErrX = errors.New(...)): any importer
// could assign it, or change in place what it holds, for every other
// one. A list a caller reads is a function that returns a copy or
// yields its members; a value (a kind, the root space, a lazily read
// table) is a function that returns it; a fixed table is unexported.
func TestNoExportedMutableVars(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
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
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		af, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range af.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if !id.IsExported() {
						continue
					}
					checked++
					var value ast.Expr
					if i < len(vs.Values) {
						value = vs.Values[i]
					}
					if what := mutable(vs.Type, value); what != "" {
						t.Errorf("%s: exported variable %s holds %s: make it a function that returns a copy, or unexport it", fset.Position(id.Pos()), id.Name, what)
					} else if af.Name.Name != "main" && !strings.HasPrefix(id.Name, "Err") {
						t.Errorf("%s: exported variable %s: any importer can assign it; make it a function that returns the value, or a constant", fset.Position(id.Pos()), id.Name)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A walk that found no exported variable at all checked nothing.
	if checked == 0 {
		t.Fatalf("found no exported package-level variable under %s", root)
	}
}

// mutable names what a package-level variable of the given declared type
// and initial value holds that importers could change in place, or
// returns "".
func mutable(typ, value ast.Expr) string {
	if what := mutableType(typ); what != "" {
		return what
	}
	switch v := value.(type) {
	case *ast.CompositeLit:
		return mutableType(v.Type)
	case *ast.UnaryExpr:
		if _, ok := v.X.(*ast.CompositeLit); ok && v.Op == token.AND {
			return "a pointer"
		}
	case *ast.CallExpr:
		if id, ok := v.Fun.(*ast.Ident); ok && (id.Name == "append" || id.Name == "make") {
			return "a slice or map"
		}
	}
	return ""
}

func mutableType(typ ast.Expr) string {
	switch t := typ.(type) {
	case *ast.ArrayType:
		if t.Len == nil {
			return "a slice"
		}
	case *ast.MapType:
		return "a map"
	}
	return ""
}
