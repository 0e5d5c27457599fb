package model_test

import (
	"testing"

	"github.com/discgen/discgen/internal/seal"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/pathspace"
)

// withZero calls f with the zero value of its first parameter's type,
// which it need not name: how code that cannot import internal/seal
// would come by a seal.Key.
func withZero[K, D, R any](f func(K, D) R, d D) R {
	var k K
	return f(k, d)
}

// TestForgedKeyRefused: a constructor called with a zero key, which
// code that cannot name seal.Key can still come by, panics; with the
// key of seal.New it makes the model of the document it was given.
func TestForgedKeyRefused(t *testing.T) {
	doc, errs := manifest.LoadSite("site.yaml", []byte("version: 1\nsite: {url: \"https://example.org/\"}\n"), "")
	if doc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	panics := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s with a zero key made a model", name)
			}
		}()
		f()
	}
	panics("NewSite", func() { withZero(model.NewSite, doc) })
	tdoc, errs := manifest.LoadTenant("t.yaml", []byte("version: 1\npath: /~alice/\n"))
	if tdoc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	space, _ := pathspace.Parse(pathspace.Root(), "/~alice/")
	panics("NewTenant", func() {
		withZero(func(k seal.Key, d *manifest.Doc[manifest.Tenant]) *model.Tenant { return model.NewTenant(k, d, space) }, tdoc)
	})

	if m := model.NewSite(seal.New(), doc); m.Doc() != doc || m.Value() != doc.Value || m.Pos() != doc.Pos {
		t.Errorf("the site's model is not of its document")
	}
	if m := model.NewTenant(seal.New(), tdoc, space); m.Doc() != tdoc || m.Space() != space || m.Value() != tdoc.Value {
		t.Errorf("the tenant's model is not of its document and space")
	}
}
