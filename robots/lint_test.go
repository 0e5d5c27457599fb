package robots

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/diag"
)

func TestLint(t *testing.T) {
	body := strings.Join([]string{
		"Disallow: /early",                  // 1 R002
		"User-agent: googlebot",             // 2
		"Disalow: /a",                       // 3 R013
		"Crawl-delay: ten",                  // 4 R020
		"Clean-parm: ref /",                 // 5 R001 did you mean Clean-param
		"Frobnicate: yes",                   // 6 R001
		"Disallow: private",                 // 7 R003
		"Disallow: /a$b",                    // 8 R004 R016
		"Allow: /x",                         // 9
		"Disallow: /x",                      // 10 R008
		"Allow: /x",                         // 11 R007
		"",                                  // 12
		"User-agent: Foo Bar",               // 13 R005
		"User-agent: bot",                   // 14 R009 (googlebot's group captures bot)
		"Disallow: /",                       // 15
		"Allow: /ok",                        // 16 R009 (first match stops at line 15)
		"User-agent: GoogleBot",             // 17 R006
		"Disallow: /b",                      // 18
		"Sitemap: /sitemap.xml",             // 19 R010
		"Host: example.com",                 // 20 R011
		"this line has no separator at all", // 21 R021
		"Disallow /c",                       // 22 R014 R009 (merged only by RFC 9309)
		"User-agent: webcrawler",            // 23
		"Allow: /~mak",                      // 24 R009 (%7E spelling)
		"Disallow: /",                       // 25
	}, "\n")
	got := map[string][]int{}
	for _, f := range Lint([]byte(body)) {
		got[f.Code] = append(got[f.Code], f.Line)
		if f.Code == CodeUnknownField && f.Line == 5 && !strings.Contains(f.Message, `"Clean-param"`) {
			t.Errorf("no suggestion: %s", f.Message)
		}
	}
	want := map[string][]int{
		CodeUnknownField:    {5, 6},
		CodeOutsideGroup:    {1},
		CodeBadStart:        {7},
		CodeDollarInside:    {8},
		CodeBadToken:        {13},
		CodeDuplicateGroup:  {17},
		CodeShadowed:        {11},
		CodeConflict:        {10},
		CodeReadingsDiffer:  {14, 16, 18, 22, 24},
		CodeRelativeSitemap: {19},
		CodeHost:            {20},
		CodeTypo:            {3},
		CodeNoColon:         {22},
		CodeWildcard:        {8},
		CodeCrawlDelay:      {4},
		CodeUnreadable:      {21},
	}
	for code, lines := range want {
		if !slices.Equal(got[code], lines) {
			t.Errorf("%s on lines %v, want %v", code, got[code], lines)
		}
	}
	for code, lines := range got {
		if _, ok := want[code]; !ok {
			t.Errorf("unexpected %s on lines %v", code, lines)
		}
	}
}

func TestLintLargeFile(t *testing.T) {
	body := "User-agent: *\n" + strings.Repeat("# padding padding padding padding\n", MaxFileSize/30)
	n := 0
	for _, f := range Lint([]byte(body)) {
		if f.Code == CodeTooLarge {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d R012 findings, want 1", n)
	}
}

// An emitted file draws no finding that says the readings differ.
func TestLintEmittedFict(t *testing.T) {
	out, err := Emit(fictPolicy)
	if err != nil {
		t.Fatal(err)
	}
	if fs := Lint(out); len(fs) != 0 {
		t.Errorf("findings on the emitted fict.org file: %v", fs)
	}
	// The seed's own file: one reading-dependent line, Allow: /~mak.
	var got []string
	for _, f := range Lint([]byte(fictSeed)) {
		got = append(got, fmt.Sprintf("%s@%d", f.Code, f.Line))
	}
	if want := []string{"R009@15"}; !slices.Equal(got, want) { // Allow: /~mak
		t.Errorf("seed file findings %v, want %v", got, want)
	}
}

func TestCheck(t *testing.T) {
	f := Parse([]byte(fictSeed))
	c := f.Check("OtherBot/1.0", "http://www.fict.org/%7Emak/mak.html")
	if c.Agree() || c.RFC9309.Allowed || !c.Draft1996.Allowed {
		t.Errorf("readings %+v: want RFC 9309 disallow, 1996 allow", c)
	}
	if c.RFC9309.Line != 16 || c.Draft1996.Line != 15 {
		t.Errorf("deciding lines %d and %d, want 16 and 15", c.RFC9309.Line, c.Draft1996.Line)
	}
	c = f.Check("unhipbot", "/org/")
	if !c.Agree() || c.RFC9309.Allowed {
		t.Errorf("unhipbot /org/: %+v", c)
	}
}

// Findings where the file cannot do what its author wrote are errors; the
// rest stay warnings, so that lint fails only on real defects.
func TestLintSeverities(t *testing.T) {
	data := []byte("Disallow: /outside\nUser-agent: Google bot\nAllow: nope\nDisallow: /x\nHost: example.org\nSitemap: map.xml\n")
	want := map[string]diag.Severity{
		CodeOutsideGroup:    diag.Error,
		CodeBadToken:        diag.Error,
		CodeBadStart:        diag.Error,
		CodeRelativeSitemap: diag.Error,
		CodeHost:            diag.Warning,
	}
	got := map[string]diag.Severity{}
	for _, f := range Lint(data) {
		got[f.Code] = f.Severity
	}
	for code, sev := range want {
		if s, ok := got[code]; !ok {
			t.Errorf("%s not reported", code)
		} else if s != sev {
			t.Errorf("%s is a %s, want %s", code, s, sev)
		}
	}
}

func lintCodes(body string) map[string][]int {
	got := map[string][]int{}
	for _, f := range Lint([]byte(body)) {
		got[f.Code] = append(got[f.Code], f.Line)
	}
	return got
}

// Two User-agent lines of one group naming the same agent are one group,
// not two: no R006.
func TestLintSameGroupTwice(t *testing.T) {
	got := lintCodes("User-agent: foo\nUser-agent: FOO\nDisallow: /\n")
	if len(got[CodeDuplicateGroup]) != 0 {
		t.Errorf("R006 on one group: %v", got)
	}
	got = lintCodes("User-agent: foo\nDisallow: /a\n\nUser-agent: FOO\nDisallow: /b\n")
	if !slices.Equal(got[CodeDuplicateGroup], []int{4}) {
		t.Errorf("R006 = %v, want line 4", got[CodeDuplicateGroup])
	}
}

// R009 names each reading.
func TestLintReadingsWording(t *testing.T) {
	for _, f := range Lint([]byte("User-agent: bot\nDisallow: /a\nAllow: /a/b\n")) {
		if f.Code == CodeReadingsDiffer {
			for _, w := range []string{"Google's parser allows", "RFC 9309 with escapes normalised allows", "the 1996 draft disallows"} {
				if !strings.Contains(f.Message, w) {
					t.Errorf("R009 %q lacks %q", f.Message, w)
				}
			}
			return
		}
	}
	t.Error("no R009")
}

// WordPress's stock robots.txt writes the Allow after the Disallow it
// carves out of: R009 says which line to move, and moving it silences it.
// A disagreement that reordering cannot mend gets no such hint.
func TestLintReadingsOrderHint(t *testing.T) {
	wp := "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n"
	var msgs []string
	for _, f := range Lint([]byte(wp)) {
		if f.Code == CodeReadingsDiffer {
			msgs = append(msgs, f.Message)
		}
	}
	want := "move line 3 (Allow: /wp-admin/admin-ajax.php) above line 2 (Disallow: /wp-admin/)"
	if len(msgs) != 1 || !strings.Contains(msgs[0], want) {
		t.Errorf("R009 = %q, want one holding %q", msgs, want)
	}
	fixed := "User-agent: *\nAllow: /wp-admin/admin-ajax.php\nDisallow: /wp-admin/\n"
	if got := lintCodes(fixed); len(got[CodeReadingsDiffer]) != 0 {
		t.Errorf("R009 after the move: %v", got)
	}
	// %7E against ~ differs whatever the order: no move is suggested.
	for _, f := range Lint([]byte("User-agent: *\nDisallow: /%7Ejim/\n")) {
		if f.Code == CodeReadingsDiffer && strings.Contains(f.Message, "move line") {
			t.Errorf("hint for an escape: %s", f.Message)
		}
	}
}

// A blank line between User-agent lines: Google joins the lines, readers
// that end a record there split them (mastodon's AI block had this shape).
func TestLintBlankInAgents(t *testing.T) {
	body := "User-agent: GPTBot\n\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow:\n"
	if got := lintCodes(body); !slices.Equal(got[CodeBlankInAgents], []int{2}) {
		t.Errorf("R024 = %v, want line 2", got)
	}
	f := Parse([]byte(body))
	if f.Match("GPTBot", "/x").Allowed != false {
		t.Error("Google's reading should join GPTBot to CCBot's rules")
	}
	// Blank lines between groups, or after the rules, are fine.
	if got := lintCodes("User-agent: a\nDisallow: /\n\nUser-agent: b\nDisallow: /\n\n\n"); len(got[CodeBlankInAgents]) != 0 {
		t.Errorf("R024 between groups: %v", got)
	}
}

// Rules that can never decide, found by the matcher rather than by
// spelling: longer wildcard patterns, "$", equal-length Allow.
func TestLintShadowedAndRedundant(t *testing.T) {
	body := strings.Join([]string{
		"User-agent: a",  // 1
		"Allow: /a",      // 2 R007: /a* (line 3) is longer and matches all it matches
		"Disallow: /a*",  // 3
		"Disallow: /b/c", // 4 R025: /b (line 5) gives the same verdict
		"Disallow: /b",   // 5
		"Allow: /d$",     // 6
		"Disallow: /d",   // 7
		"Disallow: /e/f", // 8 not redundant: Allow /e/ lies between
		"Allow: /e/",     // 9
		"Disallow: /e",   // 10
		"Disallow: /x$",  // 11 R007: Allow /x* is longer
		"Allow: /x*",     // 12 R016 only
	}, "\n")
	got := lintCodes(body)
	if !slices.Equal(got[CodeShadowed], []int{2, 11}) {
		t.Errorf("R007 = %v, want [2 11]", got[CodeShadowed])
	}
	if !slices.Equal(got[CodeRedundant], []int{4}) {
		t.Errorf("R025 = %v, want [4]", got[CodeRedundant])
	}
	// Check the claims with the matcher: without a flagged rule, every
	// URL gets the same verdict.
	f := Parse([]byte(body))
	lines := strings.Split(body, "\n")
	for _, n := range []int{2, 4, 11} {
		g := Parse([]byte(strings.Join(slices.Delete(slices.Clone(lines), n-1, n), "\n")))
		for _, u := range []string{"/a", "/ab", "/b", "/b/c", "/b/cd", "/x", "/xy", "/d", "/e/f", "/e/g"} {
			if f.Match("a", u).Allowed != g.Match("a", u).Allowed {
				t.Errorf("dropping line %d changes %s", n, u)
			}
		}
	}
}

func TestLintNoInherit(t *testing.T) {
	body := "User-agent: GPTBot\nAllow: /blog/\n\nUser-agent: webcrawler\nDisallow:\n\nUser-agent: unhip\nDisallow: /\n\nUser-agent: *\nDisallow: /admin/\nDisallow: /blog/\n"
	got := lintCodes(body)
	if !slices.Equal(got[CodeNoInherit], []int{1}) {
		t.Errorf("R023 = %v, want [1] (GPTBot only)", got[CodeNoInherit])
	}
	for _, f := range Lint([]byte(body)) {
		if f.Code == CodeNoInherit && (!strings.Contains(f.Message, "/admin/ (line 11)") || strings.Contains(f.Message, "/blog/ (line")) {
			t.Errorf("R023 message: %s", f.Message)
		}
	}
}
