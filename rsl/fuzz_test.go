package rsl_test

import (
	"bytes"
	"testing"

	"github.com/discgen/discgen/rsl"
)

// FuzzCheck: Check never panics, reports at most MaxProblems, each at a
// line and column inside the document.
func FuzzCheck(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(feed))
	f.Add([]byte(`<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license><permits type="usage">search</permits></license></content></rsl>`))
	f.Add([]byte("<?xml version=\"1.0\"?>\n<!DOCTYPE x>\n<rsl/>"))
	f.Add([]byte("<rsl xmlns=\"https://rslstandard.org/rsl\">\n<content url=\"/\"><custom>\n x</custom></content></rsl>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ps := rsl.Check(data)
		if len(ps) > rsl.MaxProblems {
			t.Fatalf("%d problems", len(ps))
		}
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, p := range ps {
			if p.Line < 1 || p.Line > lines || p.Col < 1 || p.Message == "" {
				t.Fatalf("problem %v outside a document of %d lines", p, lines)
			}
		}
	})
}
