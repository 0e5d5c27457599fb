package lint

import (
	"strings"
	"testing"

	"github.com/discgen/discgen/diag"
)

func lines(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(strings.TrimPrefix(d.String(), ":") + "\n") // no file name
	}
	return b.String()
}

// TestLintAdsTxt lints a hand-written ads.txt line by line: every field of
// a record at its column, the variables, and a variable left in a comment.
func TestLintAdsTxt(t *testing.T) {
	data := "# ads.txt\n" +
		"google.com, pub-1234567890123456, DIRECT, f08c47fec0942fa0\n" +
		"appnexus.com,1234,reseller # comment\n" +
		"google com, pub-XXXXXXXX, Direkt, TAG-123\n" +
		"example.com, 1, DIRECT\n" +
		"google.com, pub-1234567890123456, direct;extension\n" +
		"openx.com, 537\n" +
		"# managerdomain=manager.fict.org\n" +
		"OWNERDOMAIN=fict.org\n" +
		"ownerdomain=other.org\n" +
		"MANAGERDOMAIN=m.fict.org,usa\n" +
		"SELLER=x\n" +
		"\ufeffCONTACT=\n" +
		"placeholder.example.com, placeholder, DIRECT, placeholder\r\n"
	got := lines(File([]byte(data), Detect("public/ads.txt", []byte(data)), Options{}))
	for _, w := range []string{
		"4:1: D002: \"google com\" is not a domain name",
		"4:13: D003: \"pub-XXXXXXXX\" is a placeholder, not an account ID",
		"4:27: D004: \"Direkt\" is not a relationship",
		"4:35: D005: \"TAG-123\" is not a certification authority ID",
		"5:1: D002: \"example.com\" is a reserved example domain",
		"6:1: warning: D010: the same seller as line 2",
		"7:1: D001: \"openx.com, 537\" is not a record",
		"8:1: warning: D007: \"# managerdomain=manager.fict.org\" is a variable in a comment, which no crawler reads",
		"10:1: warning: D008: a second OWNERDOMAIN (the first is on line 9): crawlers use the first",
		"11:15: D009: MANAGERDOMAIN \"m.fict.org,usa\": \"usa\" is not an ISO 3166-1 alpha-2 country code",
		"12:1: warning: D008: \"SELLER\" is not a variable of ads.txt 1.1",
		"14:1: D006: the placeholder record (ads.txt 1.1 section 3.2.1) says no seller is authorized, but the file lists sellers",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
	if strings.Contains(got, ":2:") || strings.Contains(got, ":3:") || strings.Contains(got, ":9:") {
		t.Errorf("a finding on a good line:\n%s", got)
	}
}

func TestLintAdsTxtPlaceholderAlone(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{"placeholder.example.com, placeholder, DIRECT, placeholder\n", "1:1: warning: D011: the placeholder record: the file authorizes no seller (ads.txt 1.1 section 3.2.1)\n"},
		{"# nothing\nCONTACT=ads@fict.org\n", "warning: D011: no record: a site that authorizes no seller writes the placeholder record \"placeholder.example.com, placeholder, DIRECT, placeholder\" (ads.txt 1.1 section 3.2.1)\n"},
		{"google.com, pub-1, DIRECT\x00\n", "1:26: D012: the control character U+0000\n"},
		// ads.txt 1.1 writes a variable <VARIABLE>=<VALUE>: a reader that
		// splits at "=" and compares the name reads no CONTACT in
		// "CONTACT = x", so white space around "=" is warned at its column.
		{"google.com, pub-1, DIRECT\nCONTACT = ads@fict.org\n", "2:8: warning: D013: white space before \"=\" in \"CONTACT = ads@fict.org\": ads.txt 1.1 writes a variable <VARIABLE>=<VALUE>, and a reader that compares the name as written does not read CONTACT; write CONTACT=ads@fict.org\n"},
		{"google.com, pub-1, DIRECT\nCONTACT=\tads@fict.org\n", "2:9: warning: D013: white space after \"=\" in \"CONTACT=\\tads@fict.org\": ads.txt 1.1 writes a variable <VARIABLE>=<VALUE>, and a reader that takes the value as written reads it with the white space; write CONTACT=ads@fict.org\n"},
		{"google.com, pub-1, DIRECT\n  OWNERDOMAIN=fict.org\n", "2:1: warning: D013: white space before \"OWNERDOMAIN=fict.org\": ads.txt 1.1 writes a variable <VARIABLE>=<VALUE>, and a reader that compares the name as written does not read OWNERDOMAIN; write OWNERDOMAIN=fict.org\n"},
	} {
		if got := lines(File([]byte(c.data), Kind("app-ads.txt"), Options{})); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.data, got, c.want)
		}
	}
}

// TestLintSectionJSON lints the JSON files by shape, each found by its
// name (or that name with .json), with errors at their line and column.
func TestLintSectionJSON(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"gpc.json", `{"gpc": "true", "lastUpdate": "2026-13-01"}`,
			"1:9: J001: /gpc: gpc is the string \"true\": write the boolean true, without quotes\n1:31: J001: /lastUpdate: \"2026-13-01\" is not a date: lastUpdate is an ISO 8601 date, YYYY-MM-DD\n"},
		{"gpc.json", `[{"gpc": true}]`, "1:1: J001: the file must be an object, not a list around one: remove the [ ]\n"},
		{"traffic-advice", `[{"user_agent": "prefetch-proxy", "fraction": 2}, {"user_agent": "*"}]`,
			"1:47: J001: /0/fraction: fraction must be a number from 0 to 1, not 2\n1:51: warning: J001: /1: the entry advises nothing: give disallow or fraction\n"},
		{"apple-app-site-association.json", `{"applinks": {"details": [{"appID": "x", "paths": []}]}}`,
			"1:37: J001: /applinks/details/0/appID: \"x\" is not an app ID: the Team ID (10 capital letters or digits), \".\", the bundle ID (ABCDE12345.com.example.app)\n"},
		{"assetlinks.json", `{}`, "1:1: J001: the file must be a JSON list of statements, not an object (wrap a single statement in [ ])\n"},
		{"atproto-did", "did:plc:ewvi7nxzyoun6zhxrhs64oiz\n", "1:33: warning: J002: a line break after the DID: resolvers trim it, but the file should be the DID alone\n"},
		{"atproto-did.txt", "did: plc:x", "1:1: J002: \"did: plc:x\" holds white space: the file is the DID alone\n"},
		// An A2A agent card, against the schema of the version it declares.
		{"agent-card.json", "{\n  \"name\": 3,\n  \"supportedInterfaces\": []\n}\n",
			"1:1: J001: missing properties: 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'description', 'skills', 'version' (schema A2A v1.0.1)\n2:11: J001: /name: expected string, but got number (schema A2A v1.0.1)\n"},
	} {
		k := Detect(c.name, []byte(c.data))
		if got := lines(File([]byte(c.data), k, Options{})); got != c.want {
			t.Errorf("%s (%s) %s:\n got %s\nwant %s", c.name, k, c.data, got, c.want)
		}
	}
}
