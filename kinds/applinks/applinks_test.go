package applinks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/discgen/discgen/kinds/kit"
)

const goodAASA = `{
  "applinks": {
    "apps": [],
    "details": [
      {"appIDs": ["ABCDE12345.org.fict.app"], "components": [{"/": "/buy/*", "exclude": true}]},
      {"appID": "ABCDE12345.org.fict.old", "paths": ["/old/*"]}
    ]
  },
  "webcredentials": {"apps": ["ABCDE12345.org.fict.app"]},
  "appclips": {"apps": ["ABCDE12345.org.fict.app.Clip"]}
}`

const goodAssetLinks = `[{
  "relation": ["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds"],
  "target": {"namespace": "android_app", "package_name": "org.fict.app",
    "sha256_cert_fingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}
}, {
  "relation": ["delegate_permission/common.get_login_creds"],
  "target": {"namespace": "web", "site": "https://www.fict.org"}
}]`

func problemLines(ps []kit.JSONProblem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

func TestCheckAppleAssociation(t *testing.T) {
	if ps := CheckApple([]byte(goodAASA)); len(ps) > 0 {
		t.Errorf("good file: %s", problemLines(ps))
	}
	for _, c := range []struct{ name, doc, want string }{
		{"not JSON", "{\n  \"applinks\": {,}\n}", "2:16: not JSON: invalid character ','\n"},
		{"a list", `[{"applinks": {}}]`, "1:1: the file must be a JSON object with applinks, webcredentials or appclips, not a list\n"},
		{"no service", `{"apps": []}`, "1:1: no service: give applinks, webcredentials or appclips\n1:10: /apps: warning: \"apps\" is not a service of associated domains (applinks, webcredentials, appclips, activitycontinuation)\n"},
		{"no details", "{\"applinks\":\n {\"apps\": []}}", "2:2: /applinks: applinks needs details: the apps and the paths they open\n"},
		{"bad app ID", `{"applinks": {"details": [{"appID": "org.fict.app", "paths": ["/"]}]}}`,
			"1:37: /applinks/details/0/appID: \"org.fict.app\" is not an app ID: the Team ID (10 capital letters or digits), \".\", the bundle ID (ABCDE12345.com.example.app)\n"},
		{"no paths", `{"applinks": {"details": [{"appIDs": ["ABCDE12345.a.b"]}]}}`,
			"1:27: /applinks/details/0: a detail needs components (or paths): the URLs the apps open\n"},
		{"both IDs", `{"applinks": {"details": [{"appID": "ABCDE12345.a.b", "appIDs": ["ABCDE12345.a.b"], "paths": []}]}}`,
			"1:27: /applinks/details/0: give appID or appIDs, not both\n"},
		{"component types", `{"applinks": {"details": [{"appIDs": ["ABCDE12345.a.b"], "components": [{"/": 1, "exclude": "yes", "?": [], "x": 1}]}]}}`,
			"1:79: /applinks/details/0/components/0/~1: \"/\" must be a string, not a number\n" +
				"1:93: /applinks/details/0/components/0/exclude: \"exclude\" must be true or false, not a string\n" +
				"1:105: /applinks/details/0/components/0/?: \"?\" must be a string or an object, not a list\n" +
				"1:114: /applinks/details/0/components/0/x: warning: \"x\" is not a key of a component (/, ?, #, exclude, comment, caseSensitive, percentEncoded)\n"},
		{"webcredentials string", `{"webcredentials": {"apps": "ABCDE12345.a.b"}}`, "1:29: /webcredentials/apps: must be a list of app IDs, not a string\n"},
		{"appclips no apps", `{"appclips": {}}`, "1:14: /appclips: needs apps: the app IDs (TEAMID.bundle.id)\n"},
	} {
		if got := problemLines(CheckApple([]byte(c.doc))); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
	big := `{"webcredentials": {"apps": ["ABCDE12345.a.b"]}, "x": "` + strings.Repeat("a", MaxAppleBytes) + `"}`
	if got := problemLines(CheckApple([]byte(big))); !strings.HasPrefix(got, fmt.Sprintf("1:1: the file is %d bytes; Apple reads at most 131072 (128 KB)\n", len(big))) {
		t.Errorf("too big: %s", got)
	}
}

func TestCheckAssetLinks(t *testing.T) {
	if ps := CheckAssetLinks([]byte(goodAssetLinks)); len(ps) > 0 {
		t.Errorf("good file: %s", problemLines(ps))
	}
	fp := `"14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"`
	for _, c := range []struct{ name, doc, want string }{
		{"an object", `{"relation": [], "target": {}}`, "1:1: the file must be a JSON list of statements, not an object (wrap a single statement in [ ])\n"},
		{"empty", `[]`, "1:1: warning: the list holds no statement\n"},
		{"lower-case fingerprint", "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"],\n \"target\": {\"namespace\": \"android_app\", \"package_name\": \"org.fict.app\", \"sha256_cert_fingerprints\": [\"14:6d:e9\"]}}]",
			"2:102: /0/target/sha256_cert_fingerprints/0: \"14:6d:e9\" is not a SHA-256 fingerprint: 32 bytes as upper-case hexadecimal pairs joined by \":\" (14:6D:E9:...:B5), as keytool -list prints it\n"},
		{"no fingerprints", `[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "org.fict.app"}}]`,
			"1:73: /0/target: an android_app target needs sha256_cert_fingerprints: the SHA-256 fingerprints of the app's signing certificates\n"},
		{"bad package", `[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "app", "sha256_cert_fingerprints": [` + fp + `]}}]`,
			"1:118: /0/target/package_name: \"app\" is not an application ID (com.example.app)\n"},
		{"no relation, bad namespace", `[{"target": {"namespace": "ios"}}]`,
			"1:2: /0: a statement needs relation, such as [\"delegate_permission/common.handle_all_urls\"]\n1:27: /0/target/namespace: namespace must be android_app or web, not \"ios\"\n"},
		{"relation a string", `[{"relation": "delegate_permission/common.handle_all_urls", "target": {"namespace": "web", "site": "https://a.org/x"}}]`,
			"1:15: /0/relation: relation must be a non-empty list of strings, not a string\n1:100: /0/target/site: \"https://a.org/x\" is not a site: an origin such as https://www.example.com\n"},
	} {
		if got := problemLines(CheckAssetLinks([]byte(c.doc))); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
