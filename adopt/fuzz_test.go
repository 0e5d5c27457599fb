package adopt

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzRobots checks that importing any robots.txt gives a manifest that
// discgen accepts: whatever the input holds, import either carries it or
// reports it, and never writes a value validation refuses.
func FuzzRobots(f *testing.F) {
	files, _ := filepath.Glob("testdata/robots/*.txt")
	if len(files) == 0 {
		f.Fatal("no seeds in testdata/robots")
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Robots("in.txt", data, Options{SiteURL: "https://example.com/", Now: goldenNow})
		if err != nil {
			t.Fatal(err)
		}
		if res.Diags.HasErrors() {
			t.Fatalf("the manifest does not validate:\n%v\n%s", res.Diags.Errors(), res.YAML)
		}
	})
}
