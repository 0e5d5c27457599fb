package publish

import (
	"encoding/json"
	"fmt"
	"io"
)

// A JSONStream writes a build's report as one JSON document, streamed:
// each unit as it ends (Unit.JSON), then the counts of the tenants by
// status and whether the build is valid (discgen build --format json).
// Its calls are made under report's lock, as the units come.
type JSONStream struct {
	w io.Writer
	n int
}

// NewJSONStream begins the document on w.
func NewJSONStream(w io.Writer) *JSONStream {
	fmt.Fprint(w, "{\n  \"outputs\": [")
	return &JSONStream{w: w}
}

// Unit writes u as the next element of the document's outputs.
func (s *JSONStream) Unit(u *Unit) {
	b, _ := json.Marshal(u.JSON())
	sep := ","
	if s.n == 0 {
		sep = ""
	}
	s.n++
	fmt.Fprintf(s.w, "%s\n    %s", sep, b)
}

// End ends the document with the summary of the run.
func (s *JSONStream) End(sum Summary) {
	c := sum.Count
	counts, _ := json.Marshal(map[string]int{
		Built.String(): c[Built], Unchanged.String(): c[Unchanged], Refused.String(): c[Refused], Skipped.String(): c[Skipped],
	})
	fmt.Fprintf(s.w, "\n  ],\n  \"counts\": %s,\n  \"valid\": %t\n}\n", counts, !sum.Failed && sum.SiteOK)
}
