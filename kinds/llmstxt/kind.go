package llmstxt

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// Kind is /llms.txt, given by the manifest's llms_txt.
type Kind struct{}

// Value is the manifest's llms_txt. Import's YAML writer writes it, and
// each section, as a block mapping, and the details as a literal block
// (the manifest tags).
type Value struct {
	_ struct{} `manifest:"block"`
	// Title is the H1, the one required part.
	Title string `json:"title"`
	// Summary is the blockquote under the title.
	Summary string `json:"summary,omitempty"`
	// Details are markdown paragraphs (or lists) under the summary; they
	// may span lines but hold no heading.
	Details string `json:"details,omitempty" manifest:"literal"`
	// Sections are H2 sections, each a list of links; one named
	// "Optional" holds links a reader may skip.
	Sections []SectionValue `json:"sections,omitempty"`
}

// SectionValue is one H2 section of llms_txt.
type SectionValue struct {
	_     struct{}    `manifest:"block"`
	Name  string      `json:"name"`
	Links []LinkValue `json:"links,omitempty"`
}

// LinkValue is one item of a section's list: "- [title](url): notes".
type LinkValue struct {
	Title string `json:"title"`
	URL   string `json:"url"`
	Notes string `json:"notes,omitempty"`
}

// siteValue returns the site's llms_txt, nil for none.
func siteValue(site *manifest.Site) *Value { return kit.Value[Value](site, Kind{}.Key()) }

// NewValue returns a new empty llms_txt (kit.Owner).
func (Kind) NewValue() any { return new(Value) }

func (Kind) Name() string                   { return "llms.txt" }
func (Kind) Key() string                    { return "llms_txt" }
func (Kind) Path() string                   { return "llms.txt" }
func (Kind) Given(site *manifest.Site) bool { return siteValue(site) != nil }

// MediaType is text/markdown, its registered type (RFC 7763), whose
// charset parameter RFC 7763 section 2 makes required.
func (Kind) MediaType() string { return "text/markdown; charset=utf-8" }

// Check checks llms_txt. validate's check of every text value (one
// line, nothing invisible but the zero-width characters prose needs;
// line breaks and tabs in the details) comes first; Check refuses what
// markdown or the llmstxt.org reference parser would not read as given
// (Unreadable), since the file holds each value as it is, and the order
// and names that parser reads otherwise than meant.
func (Kind) Check(site *manifest.Site, _ kit.Build) []kit.Finding {
	l := siteValue(site)
	if l == nil {
		return nil
	}
	var fs []kit.Finding
	if strings.TrimSpace(l.Title) == "" {
		fs = append(fs, kit.Finding{Field: "title", Message: "the title is blank; llms.txt needs its H1"})
	} else {
		fs = checkValue(fs, "title", FieldTitle, l.Title)
	}
	if l.Summary != "" {
		fs = checkValue(fs, "summary", FieldSummary, l.Summary)
		if strings.TrimSpace(l.Details) == "" {
			fs = append(fs, kit.Finding{Field: "summary", Message: "a summary needs details after it, or the llmstxt.org reference parser reads it as details (it takes the blockquote for the summary only when text follows before the first section): add details (a paragraph about the site), or give this text as details instead of summary"})
		}
	} else if d := strings.TrimLeft(l.Details, " \t\r\n"); strings.HasPrefix(d, ">") {
		fs = append(fs, kit.Finding{Field: "details", Message: "details that start with a quote (\">\") need a summary before them: without one, the llmstxt.org reference parser reads the quote as the summary"})
	}
	fs = checkDetails(fs, l.Details)
	names := map[string]int{}
	for i, s := range l.Sections {
		sp := fmt.Sprintf("sections[%d]", i)
		np := sp + ".name"
		if first, dup := names[s.Name]; dup {
			fs = append(fs, kit.Finding{Field: np, First: fmt.Sprintf("sections[%d].name", first),
				Message: fmt.Sprintf("section %q is defined twice: give its links in one section", s.Name)})
		} else {
			names[s.Name] = i
		}
		if s.Name != Optional && strings.EqualFold(s.Name, Optional) {
			fs = append(fs, kit.Finding{Field: np, Warning: true, Message: fmt.Sprintf("%q is not the %q section llmstxt.org gives a meaning to (readers compare it exactly): write %q", s.Name, Optional, Optional)})
		}
		if s.Name == Optional && i != len(l.Sections)-1 {
			fs = append(fs, kit.Finding{Field: np, Warning: true, Message: fmt.Sprintf("the %s section is not the last; readers that drop it to save context expect it at the end", Optional)})
		}
		if len(s.Links) == 0 {
			fs = append(fs, kit.Finding{Field: sp, Warning: true, Message: fmt.Sprintf("section %q has no links", s.Name)})
		}
		fs = checkValue(fs, np, FieldSection, s.Name)
		for j, link := range s.Links {
			lp := fmt.Sprintf("%s.links[%d]", sp, j)
			fs = checkValue(fs, lp+".title", FieldLink, link.Title)
			fs = checkValue(fs, lp+".notes", FieldNotes, link.Notes)
			if msg := kit.CheckSiteRef(link.URL, "a link"); msg != "" {
				fs = append(fs, kit.Finding{Field: lp + ".url", Message: msg})
			}
		}
	}
	return fs
}

// checkValue refuses a one-line value that a markdown reader and the
// llmstxt.org reference parser would not both read as given
// (Unreadable): llms.txt writes values as they are.
func checkValue(fs []kit.Finding, field string, f Field, s string) []kit.Finding {
	if s == "" {
		return fs
	}
	if why := Unreadable(f, s); why != "" {
		fs = append(fs, kit.Finding{Field: field, Message: fmt.Sprintf("%s: %s; llms.txt writes values as they are, since the llmstxt.org reference parser reads no markdown escapes, so rephrase it", kit.QuoteShort(s), why)})
	}
	return fs
}

// checkDetails refuses a heading in the details, each at its line: details
// hold paragraphs and lists only, and the llmstxt.org reference parser
// starts a section at every line that starts with "##".
func checkDetails(fs []kit.Finding, s string) []kit.Finding {
	if s == "" {
		return fs
	}
	at := func(off int, msg string) kit.Finding {
		return kit.Finding{Field: "details", Message: msg, In: &kit.ValueOffset{Value: s, Offset: off}}
	}
	headings := map[int]bool{} // offsets of the heading lines reported
	// Every heading, each at its line: searching again after one starts
	// outside any code block, as the heading line itself was.
	for from := 0; from < len(s); {
		off, line := Heading(s[from:])
		if off < 0 {
			break
		}
		what := kit.QuoteShort(strings.TrimSpace(line)) + " is a heading"
		if strings.Trim(line, "=- \t\r") == "" {
			what = kit.QuoteShort(strings.TrimSpace(line)) + " under a line of text makes that line a heading"
		}
		fs = append(fs, at(from+off, what+": details hold paragraphs and lists only (llmstxt.org), and a heading would start a section of its own; make it a section, or bold text"))
		headings[from+off] = true
		from += off + len(line) + 1
	}
	off := 0
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "##") && !headings[off] {
			fs = append(fs, at(off, kit.QuoteShort(line)+" starts with \"##\", where the llmstxt.org reference parser starts a section, in a code block too; indent it"))
			break
		}
		off += len(line) + 1
	}
	return fs
}

// Render writes llms.txt, each link's URL resolved against site.url.
func (Kind) Render(site *manifest.Site, _ kit.Build) ([]byte, bool) {
	l := siteValue(site)
	if l == nil {
		return nil, false
	}
	base, err := url.Parse(site.Site.URL)
	if err != nil {
		return nil, false // validation has refused it
	}
	d := Doc{Title: l.Title, Summary: l.Summary, Details: l.Details}
	for _, s := range l.Sections {
		sec := Section{Name: s.Name}
		for _, k := range s.Links {
			sec.Links = append(sec.Links, Link{Title: k.Title, URL: kit.ResolveSiteRef(base, k.URL), Notes: k.Notes})
		}
		d.Sections = append(d.Sections, sec)
	}
	return Render(d), true
}

// Import sets llms_txt from a copy in the form discgen writes (rendering
// what was read gives the same bytes) whose every value is one the
// manifest accepts, and reports whether it did; any other is left out
// with a warning, since the manifest has no place for a file it cannot
// describe.
func (Kind) Import(site *manifest.Site, data []byte, warn func(line int, format string, args ...any)) bool {
	doc, err := Parse(data)
	if err == nil && !bytes.Equal(Render(doc), data) {
		err = errors.New("it is not in the form discgen writes (a heading, blockquote, details, then sections of \"- [title](url): notes\" items)")
	}
	if err == nil {
		err = importable(doc)
	}
	if err != nil {
		warn(0, "left out: %v", err)
		return false
	}
	l := &Value{Title: doc.Title, Summary: doc.Summary, Details: doc.Details}
	for _, s := range doc.Sections {
		sec := SectionValue{Name: s.Name}
		for _, k := range s.Links {
			sec.Links = append(sec.Links, LinkValue(k))
		}
		l.Sections = append(l.Sections, sec)
	}
	kit.SetValue(site, Kind{}.Key(), l)
	return true
}

// importable refuses what the manifest would refuse: values that are not
// plain one-line text, a heading in the details, URLs that are not
// absolute http(s) URLs.
func importable(doc Doc) error {
	one := []string{doc.Title, doc.Summary}
	for _, s := range doc.Sections {
		one = append(one, s.Name)
		for _, k := range s.Links {
			one = append(one, k.Title, k.Notes)
			u, err := url.Parse(k.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(k.URL, " \t") {
				return errors.New("the link " + kit.Clean(k.URL) + " is not an absolute http(s) URL")
			}
		}
	}
	for _, s := range one {
		if !kit.Plain(s) {
			return errors.New("a title, summary, section name or note holds a character the manifest refuses")
		}
	}
	if !kit.Plain(strings.NewReplacer("\n", "", "\t", "").Replace(doc.Details)) {
		return errors.New("the details hold a character the manifest refuses")
	}
	if off, line := Heading(doc.Details); off >= 0 {
		return errors.New("the details hold a heading, " + kit.Clean(strings.TrimSpace(line)) + ", which the manifest refuses")
	}
	return nil
}
