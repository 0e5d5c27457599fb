package generate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAppLinksSourceErrors builds app association files that fail their
// checks: each error is at its line and column in the source file, under
// the manifest path that names it, no file is written, and a warning
// alone does not stop the build.
func TestAppLinksSourceErrors(t *testing.T) {
	dir := t.TempDir()
	writeSource(t, dir, "app/aasa.json", "{\n  \"applinks\": {\n    \"details\": [{\"appID\": \"org.fict.app\", \"paths\": [\"/\"]}]\n  }\n}\n")
	writeSource(t, dir, "app/assetlinks.json", "[\n  {\"relation\": [\"delegate_permission/common.handle_all_urls\"],\n   \"target\": {\"namespace\": \"android_app\", \"package_name\": \"org.fict.app\",\n     \"sha256_cert_fingerprints\": [\"14:6d\"]}}\n]\n")
	src := `version: 1
site: {url: "https://www.fict.org/"}
well_known:
  app_links: {apple: app/aasa.json, android: app/assetlinks.json}
`
	doc := load(t, src)
	doc.Pos().File = "site.yaml"
	tr, errs := Site(doc, Options{Now: now, Dir: dir})
	if tr != nil {
		t.Errorf("a tree was made despite the errors")
	}
	want := []string{
		`app/aasa.json:3:27: well_known.app_links.apple: apple-app-site-association: /applinks/details/0/appID: "org.fict.app" is not an app ID`,
		`app/assetlinks.json:4:35: well_known.app_links.android: assetlinks.json: /0/target/sha256_cert_fingerprints/0: "14:6d" is not a SHA-256 fingerprint`,
	}
	got := errs.Errors()
	if len(got) != len(want) {
		t.Fatalf("errors:\n%v\nwant %d", got, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i].String(), w) {
			t.Errorf("error %d:\n got %s\nwant %s...", i, got[i], w)
		}
	}

	// A warning (an unknown service) leaves the file as it is.
	writeSource(t, dir, "app/aasa.json", `{"webcredentials": {"apps": ["ABCDE12345.org.fict.app"]}, "handoff": {}}`)
	writeSource(t, dir, "app/assetlinks.json", `[]`)
	tr, errs = Site(load(t, src), Options{Now: now, Dir: dir})
	if errs.HasErrors() || len(errs.Warnings()) != 2 {
		t.Fatalf("diagnostics: %v; want two warnings", errs)
	}
	if e, ok := tr[".well-known/apple-app-site-association"]; !ok || !strings.Contains(string(e.Data), "handoff") {
		t.Errorf("apple-app-site-association not copied byte for byte: %v", tr)
	}
	if _, ok := tr[".well-known/apple-app-site-association.json"]; ok {
		t.Errorf("the association file got an extension")
	}
}

// TestSectionFilesOnlyWhenGiven: a manifest without the section 13 keys
// writes none of their files.
func TestSectionFilesOnlyWhenGiven(t *testing.T) {
	tr, errs := Site(load(t, "version: 1\nsite: {url: \"https://www.fict.org/\"}\nwell_known: {change_password: /pw}\n"), Options{Now: now})
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	for p := range tr {
		if strings.Contains(p, "change-password") || p == "ads.txt" || p == "app-ads.txt" {
			t.Errorf("%s written", p)
		}
	}
}

// TestSectionFilesInWellKnownFiles: the same files given through
// well_known.files are checked too, each problem at its line and column
// in a literal block, at the value for a one-line one.
func TestSectionFilesInWellKnownFiles(t *testing.T) {
	doc := load(t, `version: 1
site: {url: "https://www.fict.org/"}
well_known:
  files:
    - name: assetlinks.json
      content: |
        [{"relation": ["delegate_permission/common.handle_all_urls"],
          "target": {"namespace": "ios"}}]
    - {name: gpc.json, content: '{"gpc": "true"}'}
    - {name: traffic-advice, content: '[{"user_agent": "*"}]'}
    - {name: atproto-did, content: "did:plc:short"}
`)
	tr, errs := Site(doc, Options{Now: now})
	if tr != nil {
		t.Errorf("a tree was made despite the errors")
	}
	want := []string{
		`site.yaml:8:35: error: well_known.files[0].content: assetlinks.json: /0/target/namespace: namespace must be android_app or web, not "ios"`,
		`site.yaml:9:33: error: well_known.files[1].content: gpc.json: /gpc: gpc is the string "true": write the boolean true, without quotes`,
		`site.yaml:10:39: warning: well_known.files[2].content: traffic-advice: /0: the entry advises nothing: give disallow or fraction`,
		`site.yaml:11:36: error: well_known.files[3].content: atproto-did: "did:plc:short" is not a did:plc identifier`,
	}
	errs.Sort()
	if len(errs) != len(want) {
		t.Fatalf("diagnostics:\n%v\nwant %d", errs, len(want))
	}
	for i, w := range want {
		if got := errs[i].Pos.String() + ": " + errs[i].Severity.String() + ": " + errs[i].Path + ": " + errs[i].Message; !strings.HasPrefix(got, w) {
			t.Errorf("diagnostic %d:\n got %s\nwant %s...", i, got, w)
		}
	}
}

// writeSource writes text at name, relative to dir, with the directories
// on the way: a file beside a test's manifest.
func writeSource(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
