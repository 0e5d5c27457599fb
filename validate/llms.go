package validate

import (
	"net/url"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/llmstxt"
	"github.com/discgen/discgen/manifest"
)

// detailsPath matches the path of llms_txt.details, in the manifest or in
// one of its environments: prose of many lines, which lineSafe leaves to
// llmsDetails.
var detailsPath = lazyre.New(`^(?:environments(?:\.[A-Za-z_][A-Za-z0-9_]*|\["(?:[^"\\]|\\.)*"\])\.)?llms_txt\.details$`)

// llmsTxt checks the llms_txt block. lineSafe has checked every one-line
// value (titles, the summary, names and notes: one line, nothing
// invisible but the zero-width characters prose needs); llmsValue refuses
// what markdown or the llmstxt.org reference parser would not read as
// given, since the file holds each value as it is.
func (v *checker) llmsTxt(p string, l *manifest.LlmsTxt) {
	if strings.TrimSpace(l.Title) == "" {
		v.err(manifest.Key(p, "title"), "the title is blank; llms.txt needs its H1")
	} else {
		v.llmsValue(manifest.Key(p, "title"), llmstxt.FieldTitle, l.Title)
	}
	if l.Summary != "" {
		v.llmsValue(manifest.Key(p, "summary"), llmstxt.FieldSummary, l.Summary)
		if strings.TrimSpace(l.Details) == "" {
			v.err(manifest.Key(p, "summary"), "a summary needs details after it, or the llmstxt.org reference parser reads it as details (it takes the blockquote for the summary only when text follows before the first section): add details (a paragraph about the site), or give this text as details instead of summary")
		}
	} else if d := strings.TrimLeft(l.Details, " \t\r\n"); strings.HasPrefix(d, ">") {
		v.err(manifest.Key(p, "details"), "details that start with a quote (\">\") need a summary before them: without one, the llmstxt.org reference parser reads the quote as the summary")
	}
	v.llmsDetails(manifest.Key(p, "details"), l.Details)
	names := map[string]string{}
	for i, s := range l.Sections {
		sp := manifest.Index(manifest.Key(p, "sections"), i)
		np := manifest.Key(sp, "name")
		if first, dup := names[s.Name]; dup {
			v.err(np, "section %q is defined twice (first at %s); give its links in one section", s.Name, first)
		} else {
			names[s.Name] = v.pos.Of(np).String()
		}
		if s.Name != llmstxt.Optional && strings.EqualFold(s.Name, llmstxt.Optional) {
			v.warn(np, "%q is not the %q section llmstxt.org gives a meaning to (readers compare it exactly): write %q", s.Name, llmstxt.Optional, llmstxt.Optional)
		}
		if s.Name == llmstxt.Optional && i != len(l.Sections)-1 {
			v.warn(np, "the %s section is not the last; readers that drop it to save context expect it at the end", llmstxt.Optional)
		}
		if len(s.Links) == 0 {
			v.warn(sp, "section %q has no links", s.Name)
		}
		v.llmsValue(np, llmstxt.FieldSection, s.Name)
		for j, link := range s.Links {
			lp := manifest.Index(manifest.Key(sp, "links"), j)
			v.llmsValue(manifest.Key(lp, "title"), llmstxt.FieldLink, link.Title)
			v.llmsValue(manifest.Key(lp, "notes"), llmstxt.FieldNotes, link.Notes)
			v.siteRef(manifest.Key(lp, "url"), link.URL, "a link")
		}
	}
}

// llmsValue refuses a one-line value that a markdown reader and the
// llmstxt.org reference parser would not both read as given
// (llmstxt.Unreadable): llms.txt writes values as they are.
func (v *checker) llmsValue(p string, f llmstxt.Field, s string) {
	if s == "" || v.refused(p) {
		return
	}
	if why := llmstxt.Unreadable(f, s); why != "" {
		v.err(p, "%s: %s; llms.txt writes values as they are, since the llmstxt.org reference parser reads no markdown escapes, so rephrase it", quoteShort(s), why)
	}
}

// llmsDetails checks the details: line breaks and tabs are allowed, other
// control characters, bidirectional controls, U+FEFF and tag characters
// are not, and no line may be a heading. Each error is at the character
// or line it is about.
func (v *checker) llmsDetails(p, s string) {
	if s == "" || v.refused(p) {
		return
	}
	for i, r := range s {
		if r == '\n' || r == '\r' || r == '\t' {
			continue
		}
		if msg := unsafeText(string(r), textFree); msg != "" {
			v.add(v.pos.InValue(p, s, i), diag.Error, p, "%s %s", quoteShort(lineAt(s, i)), msg)
			break
		}
	}
	headings := map[int]bool{} // offsets of the heading lines reported
	// Every heading, each at its line: searching again after one starts
	// outside any code block, as the heading line itself was.
	for from := 0; from < len(s); {
		off, line := llmstxt.Heading(s[from:])
		if off < 0 {
			break
		}
		what := quoteShort(strings.TrimSpace(line)) + " is a heading"
		if strings.Trim(line, "=- \t\r") == "" {
			what = quoteShort(strings.TrimSpace(line)) + " under a line of text makes that line a heading"
		}
		v.add(v.pos.InValue(p, s, from+off), diag.Error, p, "%s: details hold paragraphs and lists only (llmstxt.org), and a heading would start a section of its own; make it a section, or bold text", what)
		headings[from+off] = true
		from += off + len(line) + 1
	}
	// The llmstxt.org reference parser starts a section at every line
	// that starts with "##", in a code block too.
	off := 0
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "##") && !headings[off] {
			v.add(v.pos.InValue(p, s, off), diag.Error, p, "%s starts with \"##\", where the llmstxt.org reference parser starts a section, in a code block too; indent it", quoteShort(line))
			break
		}
		off += len(line) + 1
	}
}

// lineAt returns the line of s that holds byte offset i.
func lineAt(s string, i int) string {
	start := strings.LastIndexAny(s[:i], "\r\n") + 1
	end := strings.IndexAny(s[i:], "\r\n")
	if end < 0 {
		return s[start:]
	}
	return s[start : i+end]
}

// siteRef checks a URL that resolves against site.url (an llms.txt link,
// an api-catalog anchor or href): an absolute http(s) URL, or a relative
// reference that stays inside the site. "/docs/../../x" would resolve to
// /x by RFC 3986's rules, which is surely not what was meant, so a
// relative reference whose ".." segments climb above the root is an
// error.
func (v *checker) siteRef(p, s, what string) *url.URL {
	u := v.uriRef(p, s, what)
	if u == nil {
		return nil
	}
	if !u.IsAbs() && u.Host == "" && kit.LeavesRoot(u.EscapedPath()) {
		v.err(p, "%q leaves the site through \"..\": relative URLs resolve against site.url and must stay inside it; give a path from the root or an absolute URL", s)
		return nil
	}
	return u
}
