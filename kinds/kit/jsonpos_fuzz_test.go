package kit

import (
	"encoding/json"
	"testing"
)

// FuzzPositions: PositionsOf accepts exactly what encoding/json accepts
// as one value, never panics, and records every offset inside the text.
func FuzzPositions(f *testing.F) {
	for _, s := range []string{`{}`, `[1, {"a/b": [true, null]}]`, `{"a": 1,}`, `"x"`, ` 1 `, `{"a" 1}`, `[`, `{} {}`, "{\"\u00e9\": [\"\\u0000\"]}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := PositionsOf(data)
		if valid := json.Valid(data); valid != (err == nil) {
			t.Fatalf("%q: json.Valid %v, PositionsOf error %v", data, valid, err)
		}
		if err != nil {
			if se, ok := err.(*JSONSyntaxError); !ok || se.Offset < 0 || se.Offset > len(data) {
				t.Fatalf("%q: error %#v", data, err)
			}
			return
		}
		for ptr, off := range p.offsets {
			if off < 0 || off >= len(data) {
				t.Fatalf("%q: %s at %d", data, ptr, off)
			}
			if l, c := p.LineCol(off); l < 1 || c < 1 {
				t.Fatalf("%q: %s at %d:%d", data, ptr, l, c)
			}
		}
	})
}
