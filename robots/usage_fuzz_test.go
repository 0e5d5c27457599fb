package robots

import (
	"strings"
	"testing"

	"github.com/discgen/discgen/aipref"
)

// FuzzUsageLine feeds arbitrary values to the preference line parser that
// lint, import and check use: it never panics, and a value it reads
// without problems is read the same after a round trip through the
// emitter (aipref.UsageValue, aipref.SignalValue). A second round trip
// starts from preferences drawn from the input: emit then parse gives them
// back, with no problem.
func FuzzUsageLine(f *testing.F) {
	for _, s := range []string{
		"train-ai=n", "/blog/ train-ai=y, search=n", "search=yes,ai-train=no,use=reference",
		"train-ai=y;p=\"x\", search=?0", "a=(1 2)", "train-ai=n,", "\"", "train-ai=:YWJj:",
		"Train-AI=n", "/\t", "search=yes, search=no", "*=1.5, x=-7",
	} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, value string, bits uint8) {
		for _, key := range []string{"Content-Usage", "Content-Signal"} {
			ul, ok := ParseUsageLine(Line{Num: 1, Kind: KindExtension, Key: key, Value: value})
			if !ok {
				t.Fatalf("%s not read as a preference line", key)
			}
			if len(ul.Problems) > 0 {
				continue
			}
			var again aipref.Prefs
			var problems []string
			if ul.Form == UsageContentUsage {
				var path string
				path, again, problems = ParseContentUsage(strings.TrimSpace(ul.Path + " " + aipref.UsageValue(ul.Prefs)))
				if path != ul.Path && aipref.UsageValue(ul.Prefs) != "" {
					t.Fatalf("%q: path %q read back as %q", value, ul.Path, path)
				}
				if aipref.UsageValue(ul.Prefs) == "" {
					continue // nothing to write
				}
			} else {
				if aipref.SignalValue(ul.Prefs) == "" {
					continue
				}
				again, _, problems = aipref.ParseSignal(aipref.SignalValue(ul.Prefs))
			}
			want := ul.Prefs
			if ul.Form == UsageContentUsage {
				want.AIInput = aipref.PrefUnset
			}
			if again != want || len(problems) > 0 {
				t.Fatalf("%s %q: read %s, emitted and read back %s (%q)", key, value, ul.Prefs, again, problems)
			}
		}
		p := aipref.Prefs{TrainAI: aipref.Pref(bits % 3), Search: aipref.Pref(bits / 3 % 3), AIInput: aipref.Pref(bits / 9 % 3)}
		if v := aipref.SignalValue(p); v != "" {
			if got, _, problems := aipref.ParseSignal(v); got != p || len(problems) > 0 {
				t.Fatalf("Content-Signal %q: read back %s (%q), want %s", v, got, problems, p)
			}
		}
		if v := aipref.UsageValue(p); v != "" {
			want := p
			want.AIInput = aipref.PrefUnset
			if _, got, problems := ParseContentUsage("/x " + v); got != want || len(problems) > 0 {
				t.Fatalf("Content-Usage %q: read back %s (%q), want %s", v, got, problems, want)
			}
		}
	})
}
