//go:build unix

package hostgen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Hostile writes a site of 200 tenants into dir: 190 ordinary ones,
// 2 valid heavy ones (25,000 rules, about 600 kB), and 8 that are refused
// or skipped: a FIFO, a symlinked home, a symlinked manifest, one
// claiming another's space, an invalid one, one over the size limit, one
// over the node limit and an alias bomb.
func Hostile(t TB, dir string) {
	t.Helper()
	ScaleSite(t, dir, 190)
	users := filepath.Join(dir, "users")
	put := func(user, body string) string {
		p := filepath.Join(users, user, "public_html")
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		p = filepath.Join(p, "autodisc.yaml")
		if body != "" {
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	for _, h := range []string{"heavy1", "heavy2"} {
		var b strings.Builder
		fmt.Fprintf(&b, "version: 1\npath: /~%s/\nagents:\n  - names: [\"*\"]\n    disallow:\n", h)
		for i := range 25_000 {
			fmt.Fprintf(&b, "      - /~%s/p%06d/\n", h, i)
		}
		put(h, b.String())
	}
	if err := syscall.Mkfifo(put("fifo", ""), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("u0000001", filepath.Join(users, "mallory")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../u0000002/public_html/autodisc.yaml", put("eve", "")); err != nil {
		t.Fatal(err)
	}
	put("claim", "version: 1\npath: /~u0000003/\ndescription: home of /~u0000003/\n")
	put("invalid", "version: 1\npath: /~invalid/\ndescription: \"a\\nb\"\n")
	put("huge", "version: 1\npath: /~huge/\ndescription: "+strings.Repeat("a", 4<<20)+"\n")
	put("nodes", "version: 1\npath: /~nodes/\nfiles:\n  x-a: ["+strings.Repeat("a,", 1_000_000)+"]\n")
	var bomb strings.Builder
	bomb.WriteString("version: 1\npath: /~bomb/\nx0: &a0 [x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&bomb, "x%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 9), ", "))
	}
	put("bomb", bomb.String())
}
