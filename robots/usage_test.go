package robots

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/aipref"
)

func TestUsageLines(t *testing.T) {
	u := &Usage{
		Prefs: aipref.Prefs{TrainAI: aipref.PrefNo, Search: aipref.PrefYes, AIInput: aipref.PrefYes},
		Paths: []UsagePath{
			{Path: "/blog/private/", Prefs: aipref.Prefs{Search: aipref.PrefNo}},
			{Path: "/blog/", Prefs: aipref.Prefs{TrainAI: aipref.PrefYes}},
			{Path: "/same/", Prefs: aipref.Prefs{TrainAI: aipref.PrefNo}},     // says what the group says: not written
			{Path: "/input/", Prefs: aipref.Prefs{AIInput: aipref.PrefNo}},    // nothing aipref can say: not written
			{Path: "/caf\u00e9/", Prefs: aipref.Prefs{Search: aipref.PrefNo}}, // written canonical
		},
		ContentUsage: true, ContentSignal: true,
	}
	// Every category is overridden by a path: Content-Signal, which has
	// no path, says none of them.
	want := []string{
		"Content-Usage: train-ai=n, search=y",
		"Content-Usage: /blog/ train-ai=y, search=y",
		"Content-Usage: /caf%C3%A9/ train-ai=n, search=n",
		"Content-Usage: /blog/private/ train-ai=n, search=n",
	}
	if got := u.Lines(); !slices.Equal(got, want) {
		t.Errorf("Lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := u.SignalLeftOut(); len(got) != 3 {
		t.Errorf("SignalLeftOut = %v, want every category", got)
	}
	u.ContentUsage = false
	if got := u.Lines(); len(got) != 0 {
		t.Errorf("Content-Signal only: %q", got)
	}
	u.ContentUsage = true
	kept := &Usage{Prefs: u.Prefs, Paths: []UsagePath{{Path: "/blog/", Prefs: aipref.Prefs{TrainAI: aipref.PrefYes}}}, ContentSignal: true}
	if got := kept.Lines(); !slices.Equal(got, []string{"Content-Signal: search=yes, ai-input=yes"}) {
		t.Errorf("Content-Signal with train_ai overridden at /blog/: %q", got)
	}
	for path, want := range map[string]string{
		"/":                  "train_ai=no, search=yes, ai_input=yes",
		"/blog/x":            "train_ai=yes, search=yes, ai_input=yes",
		"/blog/private/x":    "train_ai=no, search=no, ai_input=yes",
		"/caf%C3%A9/x":       "train_ai=no, search=no, ai_input=yes",
		"/input/":            "train_ai=no, search=yes, ai_input=no",
		"/blogger":           "train_ai=no, search=yes, ai_input=yes",
		"/blog/private/../x": "train_ai=no, search=no, ai_input=yes",
	} {
		if got, _ := u.Effective(path); got.String() != want {
			t.Errorf("Effective(%q) = %s, want %s", path, got, want)
		}
	}
}

func TestParseContentUsage(t *testing.T) {
	for _, c := range []struct {
		value, path, prefs string
		problems           []string
	}{
		{"train-ai=n", "", "train_ai=no", nil},
		{"train-ai=y, search=n", "", "train_ai=yes, search=no", nil},
		{"  /blog/\ttrain-ai=y ", "/blog/", "train_ai=yes", nil},
		{"train-ai=y;src=\"x\", search=n;q", "", "train_ai=yes, search=no", nil}, // parameters ignored
		{"train-ai=y, train-ai=n", "", "train_ai=no", []string{"more than once"}},
		{"train-ai=yes", "", "none", []string{"not y or n"}},
		{"train-ai", "", "none", []string{"true (no \"=\")"}},
		{"train-ai=\"n\"", "", "none", []string{"not y or n"}},
		{"ai-train=n", "", "none", []string{"unknown category \"ai-train\""}},
		{"Train-AI=n", "", "none", []string{"keys are lower case"}},
		{"train-ai=n,", "", "none", []string{"invalid dictionary format"}},
		{"train-ai=n search=y", "", "none", []string{"character 11"}},
		{"/only-a-path", "/only-a-path", "none", []string{"no preference"}},
		// RFC 9651 in full: a member the vocabulary cannot use is
		// ignored, never the line.
		{"train-ai=(y), search=n", "", "search=no", []string{"inner list"}},
		{"search=@1700000000, train-ai=n", "", "train_ai=no", []string{"not y or n"}},
		{"search=%\"abc\", train-ai=n", "", "train_ai=no", []string{"not y or n"}},
		{"search=:AQID:, train-ai=n", "", "train_ai=no", []string{"not y or n"}},
		{"tdm=(a b);x=1, train-ai=n;q=?0", "", "train_ai=no", []string{"unknown category"}},
		{"train-ai=n, search=\"a,b\", search=y", "", "train_ai=no, search=yes", []string{"more than once"}},
		{"", "", "none", []string{"no preference"}},
	} {
		path, p, problems := ParseContentUsage(c.value)
		if path != c.path || p.String() != c.prefs || len(problems) != len(c.problems) {
			t.Errorf("ParseContentUsage(%q) = %q, %s, %q; want %q, %s, %d problems", c.value, path, p, problems, c.path, c.prefs, len(c.problems))
			continue
		}
		for i, want := range c.problems {
			if !strings.Contains(problems[i], want) {
				t.Errorf("ParseContentUsage(%q): problem %q, want it to say %q", c.value, problems[i], want)
			}
		}
	}
}

// usageFindings returns the preference findings (R032-R035) of a file as
// "line code" strings.
func usageFindings(data string) []string {
	var out []string
	for _, f := range Lint([]byte(data)) {
		switch f.Code {
		case CodeUsageOutside, CodeUsageHidden, CodeUsageValue, CodeUsageRepeated:
			out = append(out, fmt.Sprintf("%d %s", f.Line, f.Code))
		}
	}
	return out
}

func TestLintUsage(t *testing.T) {
	for _, c := range []struct {
		name, file string
		want       []string
	}{
		{"outside any group", "Content-Signal: ai-train=no\nUser-agent: *\nDisallow:\n", []string{"1 R032"}},
		{"hidden from a named group", "User-agent: GPTBot\nDisallow: /x/\n\nUser-agent: *\nDisallow:\nContent-Signal: ai-train=no\n", []string{"1 R033"}},
		{"named group states it too", "User-agent: GPTBot\nDisallow: /x/\nContent-Usage: train-ai=n\n\nUser-agent: *\nDisallow:\nContent-Signal: ai-train=no\n", nil},
		{"a group that may fetch nothing needs none", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\nContent-Signal: ai-train=no\n", nil},
		{"unknown category and value", "User-agent: *\nDisallow:\nContent-Usage: ai-train=n\nContent-Signal: ai-train=n\n", []string{"3 R034", "4 R034"}},
		{"not a dictionary", "User-agent: *\nDisallow:\nContent-Usage: train-ai=n, =y\n", []string{"3 R034"}},
		{"duplicate keys", "User-agent: *\nDisallow:\nContent-Signal: search=yes, search=no\nContent-Signal: search=yes\nContent-Usage: /a/ train-ai=n\nContent-Usage: /a/ train-ai=y\n", []string{"3 R035", "4 R035", "6 R035"}},
		{"emitted file", "User-agent: GPTBot\nDisallow: /x/\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y\nContent-Signal: ai-train=no\n\nUser-agent: *\nDisallow:\nContent-Usage: train-ai=n\nContent-Signal: ai-train=no\n", nil},
	} {
		if got := usageFindings(c.file); !slices.Equal(got, c.want) {
			t.Errorf("%s: findings %q, want %q", c.name, got, c.want)
		}
	}
	for _, f := range Lint([]byte("User-agent: *\nDisallow:\nContent-Usage: train-ai=n\nContent-Signal: ai-train=no\n")) {
		if f.Code == CodeUnknownField {
			t.Errorf("preference lines called unknown: %v", f)
		}
	}
}

// TestLintRealUsageFiles runs lint over real robots.txt files that carry
// preferences (testdata/usage/SOURCES.md): none draws a preference
// finding, and each states the preferences its authors wrote.
func TestLintRealUsageFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/usage/*.txt")
	if err != nil || len(files) < 2 {
		t.Fatalf("want the real files of testdata/usage, found %q (%v)", files, err)
	}
	want := map[string]string{
		"stellar-docs.txt":                 "train_ai=no, search=yes, ai_input=yes",
		"cloudflare-managed-crawlstop.txt": "train_ai=no, search=yes",
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := usageFindings(string(data)); len(got) != 0 {
			t.Errorf("%s: preference findings %q", name, got)
		}
		var all []string
		for _, f := range Lint(data) {
			all = append(all, f.String())
		}
		t.Logf("%s: lint says %q", filepath.Base(name), all)
		r := Parse(data).Usage("otherbot", "https://example.org/page")
		if got := r.ContentSignal.String(); got != want[filepath.Base(name)] {
			t.Errorf("%s: otherbot reads %s, want %s", name, got, want[filepath.Base(name)])
		}
	}
}

func TestFileUsage(t *testing.T) {
	f := Parse([]byte("User-agent: GPTBot\nDisallow: /x/\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y\nContent-Usage: /blog/ search=n\nContent-Signal: ai-train=no\n\nUser-agent: *\nDisallow:\nContent-Usage: train-ai=y\n"))
	r := f.Usage("GPTBot/1.1", "https://example.org/blog/a")
	if r.ContentUsage.String() != "train_ai=yes, search=no" || !slices.Equal(r.ContentUsageLines, []int{4, 5}) {
		t.Errorf("GPTBot /blog/a: Content-Usage %s from %v", r.ContentUsage, r.ContentUsageLines)
	}
	if r.Combined().String() != "train_ai=no, search=no" || !slices.Equal(r.ContentSignalLines, []int{6}) {
		t.Errorf("GPTBot /blog/a: combined %s, Content-Signal lines %v", r.Combined(), r.ContentSignalLines)
	}
	r = f.Usage("GPTBot", "/other")
	if r.ContentUsage.String() != "train_ai=no" || !slices.Equal(r.ContentUsageLines, []int{3}) {
		t.Errorf("GPTBot /other: %s from %v", r.ContentUsage, r.ContentUsageLines)
	}
	r = f.Usage("otherbot", "/blog/a")
	if r.ContentUsage.String() != "train_ai=yes" || !slices.Equal(r.ContentUsageLines, []int{10}) || len(r.ContentSignalLines) != 0 {
		t.Errorf("otherbot: %+v", r)
	}
}
