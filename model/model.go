package model

import (
	"github.com/discgen/discgen/internal/seal"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
)

// Site is a site manifest that validation found valid: it met its schema
// and validate's rules, its inline delegatees' included, with the
// environment it was loaded with applied. The stages that render take a
// Site, so a manifest reaches them only through validate.Site.
//
// A Site shares the document it was made of: neither validation nor any
// stage after it changes a manifest's values, and a caller that changed
// them after validation would have a Site that states what is no longer
// true.
type Site struct {
	doc *manifest.Doc[manifest.Site]
}

// NewSite returns the model of doc. Only package validate calls it, as
// only validate can make a valid seal.Key (package doc): validate.Site
// calls it for a manifest it found valid. It panics with a key that is
// not valid, which no code but a forgery holds.
func NewSite(k seal.Key, doc *manifest.Doc[manifest.Site]) *Site {
	mustBeValid(k)
	return &Site{doc: doc}
}

func mustBeValid(k seal.Key) {
	if !k.Valid() {
		panic("model: a model made with a key that is not validation's")
	}
}

// Doc returns the validated document: its values, their positions (for
// what rendering still reports at a value, such as a source file's
// content), its raw instance and its environment.
func (s *Site) Doc() *manifest.Doc[manifest.Site] { return s.doc }

// Value returns the manifest's values.
func (s *Site) Value() *manifest.Site { return s.doc.Value }

// Pos returns the positions of the manifest's values.
func (s *Site) Pos() *manifest.Positions { return s.doc.Pos }

// Tenant is a tenant manifest that validation found valid within the
// space it was found under, with the grants of its delegation; Space is
// the tenant's own space, which validation fixed.
type Tenant struct {
	doc   *manifest.Doc[manifest.Tenant]
	space pathspace.Space
}

// NewTenant returns the model of doc, whose own space is space. Only
// package validate can call it (see NewSite).
func NewTenant(k seal.Key, doc *manifest.Doc[manifest.Tenant], space pathspace.Space) *Tenant {
	mustBeValid(k)
	return &Tenant{doc: doc, space: space}
}

// Doc returns the validated document.
func (t *Tenant) Doc() *manifest.Doc[manifest.Tenant] { return t.doc }

// Value returns the manifest's values.
func (t *Tenant) Value() *manifest.Tenant { return t.doc.Value }

// Pos returns the positions of the manifest's values.
func (t *Tenant) Pos() *manifest.Positions { return t.doc.Pos }

// Space returns the tenant's own space (/~alice/), in which its files
// are rendered.
func (t *Tenant) Space() pathspace.Space { return t.space }
