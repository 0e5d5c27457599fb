package generate

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/aipref"
	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tree"
	"github.com/discgen/discgen/validate"
)

// npmPackage returns the directory of the npm package name (major
// version major), which tests run with node as an oracle written in
// another language: under $DISCGEN_NODE_MODULES, or .ci/tools/node_modules,
// where .ci/run installs it. Without node or the package the test skips,
// saying how to get them, except in CI ($CI set), where it fails.
func npmPackage(t *testing.T, name, major string) string {
	t.Helper()
	missing := func(why string) {
		testenv.Missing(t, "%s: install it with `npm install --prefix .ci/tools %s@%s` (.ci/run does)", why, name, major)
	}
	testenv.NeedsTool(t, "node", "apt-get install nodejs npm")
	dir := os.Getenv("DISCGEN_NODE_MODULES")
	if dir == "" {
		dir = filepath.Join("..", ".ci", "tools", "node_modules")
	}
	dir, err := filepath.Abs(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		missing(name + " is not installed in " + filepath.Dir(dir))
	}
	var pkg struct{ Version string }
	if json.Unmarshal(data, &pkg) != nil || !strings.HasPrefix(pkg.Version, major+".") {
		missing(name + " in " + filepath.Dir(dir) + " is not version " + major + " (" + pkg.Version + ")")
	}
	return dir
}

// sfvScript reads a JSON array of field values on stdin and prints, for
// each, whether structured-headers parses it as a dictionary and its
// members: key, the kind of value (token, inner list or other) and a
// Token's text.
const sfvScript = `
const sh = require(process.argv[2]);
const values = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = values.map(v => {
  try {
    const d = sh.parseDictionary(v);
    return {ok: true, members: [...d].map(([k, [val]]) =>
      [k, val instanceof sh.Token ? 'token' : Array.isArray(val) ? 'inner' : 'other', val instanceof sh.Token ? val.toString() : ''])};
  } catch (e) {
    return {ok: false, error: e.message};
  }
});
process.stdout.write(JSON.stringify(out));
`

type sfvReading struct {
	OK      bool        `json:"ok"`
	Error   string      `json:"error"`
	Members [][3]string `json:"members"`
}

// prefsOf reads an oracle's dictionary with the vocabulary: each known
// key whose value is the Token yes or no of the form.
func (s sfvReading) prefsOf(label func(aipref.Category) string, yes, no string) aipref.Prefs {
	var p aipref.Prefs
	for _, m := range s.Members {
		for _, c := range aipref.Categories {
			if label(c) == "" || label(c) != m[0] {
				continue
			}
			switch {
			case m[1] == "token" && m[2] == yes:
				c.Set(&p, aipref.PrefYes)
			case m[1] == "token" && m[2] == no:
				c.Set(&p, aipref.PrefNo)
			}
		}
	}
	return p
}

func runStructuredHeaders(t *testing.T, dir string, values []string) []sfvReading {
	script := filepath.Join(t.TempDir(), "sfv.cjs")
	if err := os.WriteFile(script, []byte(sfvScript), 0o644); err != nil {
		t.Fatal(err)
	}
	// The package's CommonJS build.
	return readAll[sfvReading](t, exec.Command("node", script, filepath.Join(dir, "cjs", "index.cjs")), values)
}

// readAll runs an independent reader: cmd reads the JSON array of texts
// on its standard input and prints a JSON array of one reading each.
func readAll[R any](t *testing.T, cmd *exec.Cmd, texts []string) []R {
	t.Helper()
	in, err := json.Marshal(texts)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin = bytes.NewReader(in)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, stderr.String())
	}
	var res []R
	if err := json.Unmarshal(out, &res); err != nil || len(res) != len(texts) {
		t.Fatalf("%s printed %d readings for %d texts: %v", cmd.Args[0], len(res), len(texts), err)
	}
	return res
}

// TestUsageValuesIndependentParser reads every preference value the
// builds of TestUsageReadersAgree's manifests write (each Content-Usage
// rule's dictionary, each Content-Signal value, each header value and
// _headers' joined value at each URL) and the RFC 9651 cases discgen's
// parser is tested on, with structured-headers (npm, JavaScript) as well
// as with discgen: both read each as a dictionary or neither, and the
// vocabulary finds the same preferences in both readings.
func TestUsageValuesIndependentParser(t *testing.T) {
	dir := npmPackage(t, "structured-headers", "2")
	usageVals := map[string]bool{}
	signalVals := map[string]bool{}
	g := ugen{rand.New(rand.NewPCG(usageDefaultSeed, 0x7573616765))}
	n := 50
	if testenv.Long() {
		n = 200
	}
	for range n {
		src, _ := g.manifest()
		doc, errs := manifest.LoadSite("site.yaml", []byte(src), "")
		if doc == nil || errs.HasErrors() {
			t.Fatalf("invalid manifest: %v\n%s", errs, src)
		}
		m, verrs := validate.Site(doc, validate.Options{Now: now})
		if m == nil {
			t.Fatalf("invalid manifest: %v\n%s", verrs, src)
		}
		data, rerrs := siteRobots(doc)
		if rerrs.HasErrors() {
			continue
		}
		for _, gr := range robots.Parse(data).Groups {
			for _, l := range gr.UsageOf().Lines {
				v := strings.TrimSpace(l.Value)
				if l.Form == robots.UsageContentSignal {
					signalVals[v] = true
					continue
				}
				if strings.HasPrefix(v, "/") {
					_, v, _ = strings.Cut(v, " ")
				}
				usageVals[v] = true
			}
		}
		access, _ := SiteAccess(m)
		kinds := []serverconf.Kind{serverconf.Headers, serverconf.Caddy}
		public, separate, err := serverconf.RenderAccess(tree.Tree{"robots.txt": {Data: data}}, kinds, access)
		if err != nil {
			t.Fatal(err)
		}
		hrules := headersFileRules(t, public[serverconf.HeadersFile].Data)
		for _, r := range append(hrules, caddyRules(t, separate[serverconf.CaddyFile].Data)...) {
			usageVals[r.value] = true
		}
		for _, u := range usageURLs(doc) {
			var vals []string
			for _, r := range hrules {
				if p, ok := strings.CutSuffix(r.pattern, "*"); ok && strings.HasPrefix(u, p) || r.pattern == u {
					vals = append(vals, r.value)
				}
			}
			if len(vals) > 0 {
				usageVals[strings.Join(vals, ", ")] = true
			}
		}
	}
	emitted := len(usageVals) + len(signalVals)
	// The RFC 9651 cases of discgen's own parser tests. (structured-headers
	// 2.1.0 refuses a Date followed by another member, which RFC 9651
	// section 4.2.9 allows: "search=@1700000000, train-ai=n" is left out.)
	for _, v := range []string{
		"train-ai=(y), search=n", "train-ai=n, search=@1700000000", "search=%\"abc\", train-ai=n",
		"search=:AQID:, train-ai=n", "tdm=(a b);x=1, train-ai=n;q=?0", "train-ai=n, search=\"a,b\", search=y",
		"train-ai=y, train-ai=n", "train-ai=yes", "train-ai", "Train-AI=n", "train-ai=n,", "train-ai=n search=y",
	} {
		usageVals[v] = true
	}
	for _, v := range []string{"search=yes,ai-train=no,use=reference", "search=yes, ai-train=(no), x=%\"%c3%a9\"", "search=yes, search=no"} {
		signalVals[v] = true
	}
	check := func(form string, vals map[string]bool, parse func(string) (aipref.Prefs, bool), label func(aipref.Category) string, yes, no string) int {
		keys := make([]string, 0, len(vals))
		for v := range vals {
			keys = append(keys, v)
		}
		slices.Sort(keys)
		differ := 0
		for i, r := range runStructuredHeaders(t, dir, keys) {
			ours, ok := parse(keys[i])
			theirs := r.prefsOf(label, yes, no)
			if ok != r.OK || ours != theirs {
				differ++
				t.Errorf("%s %q: discgen reads %s (a dictionary: %v), structured-headers %s (a dictionary: %v %s)", form, keys[i], ours, ok, theirs, r.OK, r.Error)
			}
		}
		return len(keys) - differ
	}
	dict := func(problems []string) bool {
		return !slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, aipref.NotADictionary) })
	}
	sameU := check("Content-Usage", usageVals, func(v string) (aipref.Prefs, bool) {
		p, problems := aipref.ParseUsage(v)
		return p, dict(problems)
	}, func(c aipref.Category) string { return c.ContentUsage }, "y", "n")
	sameS := check("Content-Signal", signalVals, func(v string) (aipref.Prefs, bool) {
		p, _, problems := aipref.ParseSignal(v)
		return p, dict(problems)
	}, func(c aipref.Category) string { return c.ContentSignal }, "yes", "no")
	t.Logf("%d distinct values (%d written by %d builds, %d hand-written): %d Content-Usage and %d Content-Signal values read alike by discgen and structured-headers",
		len(usageVals)+len(signalVals), emitted, n, len(usageVals)+len(signalVals)-emitted, sameU, sameS)
}
