package validate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/validate"
)

// tdm.paths are bounded, and checked for overlaps without comparing every
// pair: literal paths of one length meet only when equal.
func TestTDMPathsBounded(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{validate.MaxTDMPaths, ""},
		{validate.MaxTDMPaths + 1, fmt.Sprintf("tdm.paths[%d]: more than %d tdm paths; the limit is %d", validate.MaxTDMPaths, validate.MaxTDMPaths, validate.MaxTDMPaths)},
	} {
		var b strings.Builder
		b.WriteString("version: 1\nsite: {url: \"https://example.org/\"}\ntdm:\n  reservation: true\n  paths:\n")
		for i := range tc.n {
			fmt.Fprintf(&b, "    - {path: /p%05d/, reservation: false}\n", i)
		}
		doc, errs := manifest.LoadSite("m.yaml", []byte(b.String()), "")
		if doc == nil || errs.HasErrors() {
			t.Fatalf("load: %v", errs)
		}
		got := checkSite(doc, validate.Options{}).Errors()
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%d paths: %v", tc.n, got[0])
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0].String(), tc.want)):
			t.Errorf("%d paths: %v, want %q", tc.n, got, tc.want)
		}
	}
}
