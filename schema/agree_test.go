package schema_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/templates"
	"github.com/discgen/discgen/validate"
)

// nodeModules returns the directory holding the npm packages the editor
// and ajv tests use: $DISCGEN_NODE_MODULES, or .ci/tools/node_modules,
// where .ci/run installs them. It skips the test when node or a package
// is missing.
func nodeModules(t *testing.T, pkgs ...string) string {
	t.Helper()
	testenv.NeedsTool(t, "node", "apt-get install nodejs npm; .ci/run installs it")
	dir := os.Getenv("DISCGEN_NODE_MODULES")
	if dir == "" {
		dir = filepath.Join("..", ".ci", "tools", "node_modules")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		if _, err := os.Stat(filepath.Join(dir, p, "package.json")); err != nil {
			testenv.Missing(t, "%s: not installed in %s (.ci/run installs it with npm)", p, dir)
		}
	}
	return dir
}

type agreeCase struct {
	name string
	yaml string
	// at is, for a manifest both must refuse, the JSON pointer of a value
	// (or key) ajv must name; empty for good manifests.
	at string
}

const base = "version: 1\nsite: {url: \"https://example.org/\"}\n"

// Manifests both ajv and discgen accept.
var agreeGood = []agreeCase{
	{name: "minimal", yaml: base},
	{name: "tokens", yaml: base + "agents:\n  - {names: [\"*\", Googlebot, bing-bot_x], allow: [/a/, \"*.pdf$\"], disallow: [/]}\n  - {names: [other], disallow: []}\n"},
	{name: "extension", yaml: base + "agents: [{names: [\"*\"], disallow: [/x], extensions: [{field: Clean-param, value: \"ref /a/\"}]}]\n"},
	{name: "files", yaml: base + "files: {x-contact.txt: a@example.org, x-list.txt: [a, b]}\n"},
	{name: "sitemaps and host", yaml: base + "sitemaps: [https://example.org/sitemap.xml, HTTP://example.org/s2.xml]\nhost: www.example.org:8080\n"},
	{name: "mobile", yaml: base + "mobile_agents: [{path: /, server: \"atp://example.org:8001\"}, {path: /home/, server: none}]\n"},
	{name: "datasets", yaml: base + "datasets: [{path: /d.csv, name: d, type: text/csv, license: CC-BY-4.0}]\ndata_txt: {format: yaml}\n"},
	{name: "security.txt duration", yaml: base + "well_known:\n  security_txt: {contact: [\"mailto:s@example.org\", \"tel:+1-555-0100\", \"https://example.org/sec\"], expires: 26w, preferred_languages: [en, en-GB, zh-Hant-TW]}\n"},
	{name: "security.txt time", yaml: base + "well_known:\n  security_txt: {contact: \"mailto:s@example.org\", expires: \"2027-06-01T02:00:00+02:00\"}\n"},
	{name: "well-known file", yaml: base + "well_known:\n  files: [{name: gpc.json, content: '{}'}, {name: nodeinfo, content: x}]\n"},
	{name: "delegation", yaml: base + "delegations:\n  - {path: /projects/, only: [icons.txt, x-notes.txt]}\n  - {path: \"~*\", except: [robots.txt]}\n"},
	{name: "url without slash", yaml: "version: 1\nsite: {url: \"https://example.org\"}\n"},
	{name: "usage", yaml: base + "usage: {train_ai: no, search: yes, paths: [{path: /blog/, train_ai: yes}], formats: [content-signal, content-usage]}\nagents: [{names: [GPTBot], usage: {search: no}}, {names: [\"*\"], disallow: []}]\nexpect: [{agent: GPTBot, usage: {train_ai: no}, urls: [/a]}]\n"},
}

// Manifests both refuse, where the schema can say why.
var agreeBad = []agreeCase{
	{name: "files key without x-", yaml: base + "files: {contact.txt: a}\n", at: "/files/contact.txt"},
	{name: "agent with a version", yaml: base + "agents: [{names: [Googlebot/2.1], disallow: [/]}]\n", at: "/agents/0/names/0"},
	{name: "agent with a space", yaml: base + "agents: [{names: [\"Google bot\"], disallow: [/]}]\n", at: "/agents/0/names/0"},
	{name: "agent with a colon", yaml: base + "agents: [{names: [\"bot:1\"], disallow: [/]}]\n", at: "/agents/0/names/0"},
	{name: "expect agent", yaml: base + "agents: [{names: [\"*\"], disallow: [/]}]\nexpect: [{agent: a/b, allowed: [/]}]\n", at: "/expect/0/agent"},
	{name: "rule without slash", yaml: base + "agents: [{names: [\"*\"], disallow: [private/]}]\n", at: "/agents/0/disallow/0"},
	{name: "rule with a comment", yaml: base + "agents: [{names: [\"*\"], disallow: [\"/a#b\"]}]\n", at: "/agents/0/disallow/0"},
	{name: "extension field", yaml: base + "agents: [{names: [\"*\"], disallow: [/], extensions: [{field: 1x, value: v}]}]\n", at: "/agents/0/extensions/0/field"},
	{name: "expires tomorrow", yaml: base + "well_known:\n  security_txt: {contact: \"mailto:s@example.org\", expires: tomorrow}\n", at: "/well_known/security_txt/expires"},
	{name: "expires date only", yaml: base + "well_known:\n  security_txt: {contact: \"mailto:s@example.org\", expires: \"2027-06-01\"}\n", at: "/well_known/security_txt/expires"},
	{name: "expires month unit", yaml: base + "well_known:\n  security_txt: {contact: \"mailto:s@example.org\", expires: 6m}\n", at: "/well_known/security_txt/expires"},
	{name: "contact without scheme", yaml: base + "well_known:\n  security_txt: {contact: [s@example.org], expires: 180d}\n", at: "/well_known/security_txt/contact/0"},
	{name: "language tag", yaml: base + "well_known:\n  security_txt: {contact: \"mailto:s@example.org\", expires: 180d, preferred_languages: [\"e n\"]}\n", at: "/well_known/security_txt/preferred_languages/0"},
	{name: "relative sitemap", yaml: base + "sitemaps: [/sitemap.xml]\n", at: "/sitemaps/0"},
	{name: "ftp sitemap", yaml: base + "sitemaps: [\"ftp://example.org/s.xml\"]\n", at: "/sitemaps/0"},
	{name: "site url with a path", yaml: "version: 1\nsite: {url: \"https://example.org/blog/\"}\n", at: "/site/url"},
	{name: "site url not http", yaml: "version: 1\nsite: {url: \"ftp://example.org/\"}\n", at: "/site/url"},
	{name: "host", yaml: base + "host: \"exa mple.org\"\n", at: "/host"},
	{name: "mobile server with a path", yaml: base + "mobile_agents: [{path: /, server: \"atp://example.org/x\"}]\n", at: "/mobile_agents/0/server"},
	{name: "mobile path", yaml: base + "mobile_agents: [{path: home, server: none}]\n", at: "/mobile_agents/0/path"},
	{name: "dataset path", yaml: base + "datasets: [{path: d.csv}]\n", at: "/datasets/0/path"},
	{name: "dataset type", yaml: base + "datasets: [{path: /d.csv, type: csv}]\n", at: "/datasets/0/type"},
	{name: "only index.txt", yaml: base + "delegations: [{path: /p/, only: [index.txt]}]\n", at: "/delegations/0/only/0"},
	{name: "only unknown", yaml: base + "delegations: [{path: /p/, only: [humans.txt]}]\n", at: "/delegations/0/only/0"},
	{name: "only and except", yaml: base + "delegations: [{path: /p/, only: [icons.txt], except: [robots.txt]}]\n", at: "/delegations/0"},
	{name: "well-known name", yaml: base + "well_known:\n  files: [{name: \"a b\", content: x}]\n", at: "/well_known/files/0/name"},
	{name: "content and source", yaml: base + "well_known:\n  files: [{name: a, content: x, source: f}]\n", at: "/well_known/files/0"},
	{name: "unknown key", yaml: base + "agnets: []\n", at: "/agnets"},
	{name: "version 2", yaml: "version: 2\nsite: {url: \"https://example.org/\"}\n", at: "/version"},
	{name: "no site", yaml: "version: 1\n", at: ""},
	{name: "data_txt format", yaml: base + "data_txt: {format: json}\n", at: "/data_txt/format"},
	{name: "usage value", yaml: base + "usage: {train_ai: never}\n", at: "/usage/train_ai"},
	{name: "usage category", yaml: base + "usage: {ai_train: no}\n", at: "/usage/ai_train"},
	{name: "usage format", yaml: base + "usage: {train_ai: no, formats: [robots]}\n", at: "/usage/formats/0"},
	{name: "usage path", yaml: base + "usage: {paths: [{path: blog/, train_ai: no}]}\n", at: "/usage/paths/0/path"},
	{name: "expect usage empty", yaml: base + "agents: [{names: [\"*\"], disallow: []}]\nexpect: [{agent: a, usage: {}}]\n", at: "/expect/0/usage"},
}

// Manifests the schema accepts and discgen refuses: rules no JSON Schema
// keyword can state (a minimum duration, overlapping delegations, dot
// segments, an empty mailto:). Listed so that the limits are known and a
// change that makes the schema stricter shows here.
var agreeSemanticOnly = []agreeCase{
	{name: "expires too short", yaml: base + "well_known:\n  security_txt: {contact: \"mailto:s@example.org\", expires: 30d}\n"},
	{name: "dollar inside a rule", yaml: base + "agents: [{names: [\"*\"], disallow: [\"/a$b\"]}]\n"},
	{name: "delegation leaves its space", yaml: base + "delegations: [{path: /a/../b/}]\n"},
	{name: "overlapping delegations", yaml: base + "delegations: [{path: \"~*\"}, {path: /~alice/blog/}]\n"},
	{name: "empty mailto", yaml: base + "well_known:\n  security_txt: {contact: \"mailto:\", expires: 180d}\n"},
	{name: "usage path twice", yaml: base + "usage: {paths: [{path: /a/, train_ai: no}, {path: /a/, search: no}]}\n"},
	{name: "http csaf", yaml: base + "well_known:\n  security_txt: {contact: \"mailto:s@example.org\", expires: 180d, csaf: \"http://example.org/p.json\"}\n"},
}

var agreeNow = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// discgenErrors loads and validates a manifest as discgen build does and
// returns its errors; raw is the JSON instance the schema saw.
func discgenErrors(t *testing.T, c agreeCase) (errs []string, raw any) {
	t.Helper()
	doc, list := manifest.LoadSite("site.yaml", []byte(c.yaml), "")
	if doc != nil {
		raw = doc.Raw
		if doc.Value != nil {
			_, verrs := validate.Site(doc, validate.Options{Now: agreeNow})
			list = append(list, verrs...)
		}
	}
	for _, d := range list {
		if d.Severity.String() == "error" {
			errs = append(errs, d.String())
		}
	}
	return errs, raw
}

// ajv (strict mode, draft 2020-12) and discgen agree on every manifest
// above: both accept the good ones, both refuse the bad ones, ajv at the
// value the rule is about.
func TestAjvAgrees(t *testing.T) {
	mods := nodeModules(t, "ajv", "ajv-formats")
	ex, err := os.ReadFile("../examples/site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	good := append([]agreeCase{{name: "examples/site.yaml", yaml: string(ex)}, {name: "starter", yaml: string(templates.Starter())}}, agreeGood...)
	type input struct {
		Name     string `json:"name"`
		Instance any    `json:"instance"`
	}
	var in []input
	all := slices.Concat(good, agreeBad, agreeSemanticOnly)
	discgen := map[string][]string{}
	for _, c := range all {
		errs, raw := discgenErrors(t, c)
		if raw == nil {
			t.Fatalf("%s: no instance: %v", c.name, errs)
		}
		discgen[c.name] = errs
		in = append(in, input{c.name, raw})
	}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "testdata/ajv.js", "site.schema.json")
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	cmd.Stdin = strings.NewReader(string(data))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ajv: %v\n%s", err, stderr.String())
	}
	var ajv map[string][]string
	if err := json.Unmarshal(out, &ajv); err != nil {
		t.Fatalf("ajv's answer: %v\n%s", err, out)
	}
	for _, c := range good {
		if len(ajv[c.name]) > 0 || len(discgen[c.name]) > 0 {
			t.Errorf("good %q: ajv errors at %v; discgen errors %v", c.name, ajv[c.name], discgen[c.name])
		}
	}
	for _, c := range agreeBad {
		if len(discgen[c.name]) == 0 {
			t.Errorf("bad %q: discgen accepts it", c.name)
		}
		if !slices.Contains(ajv[c.name], c.at) {
			t.Errorf("bad %q: ajv errors at %q, want one at %q (discgen: %v)", c.name, ajv[c.name], c.at, discgen[c.name])
		}
	}
	for _, c := range agreeSemanticOnly {
		if len(ajv[c.name]) > 0 || len(discgen[c.name]) == 0 {
			t.Errorf("semantic-only %q: ajv errors at %v (want none); discgen errors %v (want some)", c.name, ajv[c.name], discgen[c.name])
		}
	}
	t.Logf("%d good, %d bad, %d refused only by discgen's semantic rules", len(good), len(agreeBad), len(agreeSemanticOnly))
}
