package main

import (
	"os"
	"path/filepath"
	"testing"
)

// writeSitemap writes the sitemap examples/site.yaml names into the
// output tree, as the site's generator would.
func writeSitemap(t *testing.T, public string) {
	t.Helper()
	data := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.fict.org/</loc></url></urlset>
`
	if err := os.WriteFile(filepath.Join(public, "sitemap.xml"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
