package publish

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A build keeps the verdicts of the site's schema checks in its state
// directory, for its version only; a check writes none; a file of
// another version is rewritten.
func TestVerdictFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"site.yaml": `version: 1
site: {url: "https://www.fict.org/"}
well_known:
  files:
    - {name: x-data.json, source: data.json, schema: schema.json}
`,
		"data.json":   `{"a": 1}`,
		"schema.json": `{"type": "object", "required": ["a"]}`,
	})
	file := filepath.Join(dir, ".state", "verdicts.stat")
	read := func() string {
		data, err := os.ReadFile(file)
		if err != nil {
			return ""
		}
		return string(data)
	}
	build := func(mode Mode, version string) {
		t.Helper()
		o := publishAt(t, dir, func(opt *Options) { opt.Mode, opt.Version = mode, version })
		if o.sum.Failed {
			t.Fatalf("%v build failed", mode)
		}
	}
	build(Write, "v1") // the state directory is made after the site is rendered
	build(Write, "v1")
	first := read()
	lines := strings.Split(strings.TrimSpace(first), "\n")
	if len(lines) != 3 || lines[0] != verdictMagic || lines[1] != "version v1" || !isVerdictKey(lines[2]) {
		t.Fatalf("verdicts file:\n%s\nwant the magic, the version and one key", first)
	}
	st, _ := os.Stat(file)
	build(Write, "v1")
	if st2, _ := os.Stat(file); !os.SameFile(st, st2) {
		t.Errorf("an unchanged verdict was written again")
	}
	writeFiles(t, dir, map[string]string{"data.json": `{"a": 2}`})
	build(Check, "v1")
	if read() != first {
		t.Errorf("a check wrote the verdicts")
	}
	build(Write, "v2")
	if got := read(); !strings.Contains(got, "version v2\n") || got == first {
		t.Errorf("another version's file kept:\n%s", got)
	}
	// A file that is not one is as none.
	if err := os.WriteFile(file, []byte("version v2\n"+strings.Repeat("z", 64)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v := loadVerdicts(filepath.Dir(file), "v2"); len(v.known) != 0 {
		t.Errorf("a file without the magic line gave %d keys", len(v.known))
	}
}
