// Package gpc is the kind of /.well-known/gpc.json, W3C "Global Privacy
// Control (GPC)", Working Draft (https://www.w3.org/TR/gpc/, section "GPC
// Support Resource"): a JSON object whose gpc member is a boolean (true:
// the site honours the signal) and whose optional lastUpdate is an ISO
// 8601 date (YYYY-MM-DD), served as application/json. The manifest's
// well_known.gpc gives it; a hand-written copy is checked by shape
// (shape.go) and carried back when discgen renders it byte for byte.
package gpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// Value is the manifest's well_known.gpc. GPC is nil for the default,
// true.
type Value struct {
	GPC        *bool  `json:"gpc,omitempty"`
	LastUpdate string `json:"last_update,omitempty"`
}

// File is the model of gpc.json.
type File struct {
	GPC        bool
	LastUpdate string // YYYY-MM-DD, or ""
}

// Model converts the manifest block to the model: gpc is true unless the
// manifest says false.
func Model(g *Value) File {
	return File{GPC: g.GPC == nil || *g.GPC, LastUpdate: g.LastUpdate}
}

// CheckDate checks lastUpdate: a real calendar date, YYYY-MM-DD.
func CheckDate(s string) string {
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return fmt.Sprintf("%q is not a date: lastUpdate is an ISO 8601 date, YYYY-MM-DD", s)
	}
	return ""
}

// RenderFile returns the bytes of gpc.json: {"gpc": ..., "lastUpdate": ...}
// indented by two spaces, ending in LF.
func RenderFile(g File) []byte {
	out := struct {
		GPC        bool   `json:"gpc"`
		LastUpdate string `json:"lastUpdate,omitempty"`
	}{g.GPC, g.LastUpdate}
	return kit.MarshalFile(out)
}

// Kind is gpc.json.
type Kind struct{}

func value(site *manifest.Site) *Value { return kit.Value[Value](site, Kind{}.Key()) }

// NewValue returns a new zero well_known.gpc (kit.Owner).
func (Kind) NewValue() any { return new(Value) }

func (Kind) Name() string                   { return "gpc.json" }
func (Kind) Key() string                    { return "well_known.gpc" }
func (Kind) Path() string                   { return ".well-known/gpc.json" }
func (Kind) MediaType() string              { return "application/json" }
func (Kind) Given(site *manifest.Site) bool { return value(site) != nil }

func (Kind) Check(site *manifest.Site, _ kit.Build) []kit.Finding {
	if g := value(site); g != nil && g.LastUpdate != "" {
		if msg := CheckDate(g.LastUpdate); msg != "" {
			return []kit.Finding{{Field: "last_update", Message: msg}}
		}
	}
	return nil
}

func (Kind) Render(site *manifest.Site, _ kit.Build) ([]byte, bool) {
	g := value(site)
	if g == nil {
		return nil, false
	}
	return RenderFile(Model(g)), true
}

// CheckShape checks a hand-written copy by shape (CheckJSON).
func (Kind) CheckShape(data []byte) []kit.JSONProblem { return CheckJSON(data) }

// Lint lints a hand-written copy by shape.
func (Kind) Lint(data []byte) []diag.Diagnostic {
	return kit.JSONDiagnostics(CheckJSON(data), kit.CodeJSON)
}

// Import sets well_known.gpc from a copy that discgen renders byte for
// byte, and reports whether it did.
func (Kind) Import(site *manifest.Site, data []byte, _ func(int, string, ...any)) bool {
	var g struct {
		GPC        *bool   `json:"gpc"`
		LastUpdate *string `json:"lastUpdate"`
	}
	if json.Unmarshal(data, &g) != nil || g.GPC == nil {
		return false
	}
	m := &Value{}
	if !*g.GPC {
		m.GPC = g.GPC
	}
	if g.LastUpdate != nil {
		m.LastUpdate = *g.LastUpdate
	}
	if !bytes.Equal(RenderFile(Model(m)), data) {
		return false
	}
	kit.SetValue(site, Kind{}.Key(), m)
	return true
}
