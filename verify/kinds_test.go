package verify

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/discgen/discgen/kinds/registry"
)

// verify names no kind's path: what it checks of a kind's deployed file
// beyond its bytes and headers, the kind says (kit.DeployedChecker,
// kit.NoRedirect, kit.CrossOrigin, kit.Served, kit.Linked).
func TestVerifyNamesNoKind(t *testing.T) {
	paths := map[string]string{}
	for _, k := range registry.All() {
		paths["/"+k.Path()] = k.Name()
		paths[k.Path()] = k.Name()
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(af, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			if name, ok := paths[s]; ok {
				t.Errorf("%s: verify names %s's path %q: let the kind say what to check", fset.Position(lit.Pos()), name, s)
			}
			return true
		})
	}
	if checked == 0 {
		t.Fatal("no source file read")
	}
}
