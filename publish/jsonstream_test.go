package publish

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The stream is one JSON document, however many units it holds.
func TestJSONStream(t *testing.T) {
	for _, n := range []int{0, 1, 3} {
		var b bytes.Buffer
		s := NewJSONStream(&b)
		for range n {
			s.Unit(&Unit{Kind: Tenant, Dir: "users/a", Status: Built})
		}
		s.End(Summary{SiteOK: true, Count: [4]int{Built: n}})
		var doc struct {
			Outputs []json.RawMessage `json:"outputs"`
			Counts  map[string]int    `json:"counts"`
			Valid   bool              `json:"valid"`
		}
		if err := json.Unmarshal(b.Bytes(), &doc); err != nil || len(doc.Outputs) != n || doc.Counts["built"] != n || !doc.Valid {
			t.Errorf("%d units: %v %+v\n%s", n, err, doc, b.String())
		}
	}
}
