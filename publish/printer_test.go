package publish

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// The summary counts tenants only (not the site or the server
// configuration), with commas as the status line writes them, and at
// scale lists the refused and skipped tenants again at the end.
func TestBuildSummary(t *testing.T) {
	var stdout, stderr bytes.Buffer
	p := &Printer{Format: "text", Mode: Write, Stdout: &stdout, Stderr: &stderr}
	p.Begin()
	var sum Summary
	add := func(u *Unit) {
		p.Unit(u)
		sum.Count[u.Status]++
	}
	add(&Unit{Kind: Site, Dir: "public", Status: Built})
	for i := range 1234 {
		st := Unchanged
		switch i {
		case 5, 6:
			st = Refused
		case 9:
			st = Skipped
		}
		add(&Unit{Kind: Tenant, Dir: fmt.Sprintf("home/u%d", i), Status: st})
	}
	p.End(sum)
	if want := "tenants: 0 built, 1,231 unchanged, 2 refused, 1 skipped\n"; !strings.HasSuffix(stdout.String(), want) {
		t.Errorf("stdout ends %q, want %q", tailLines(stdout.String()), want)
	}
	if want := "discgen: error: 2 tenants refused: home/u5, home/u6\ndiscgen: error: 1 tenant skipped: home/u9\n"; !strings.HasSuffix(stderr.String(), want) {
		t.Errorf("stderr ends %q, want %q", tailLines(stderr.String()), want)
	}
}

func tailLines(s string) string {
	if i := strings.LastIndex(strings.TrimSuffix(s, "\n"), "\n"); i > 0 {
		s = s[i:]
	}
	return s
}
