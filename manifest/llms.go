package manifest

// LlmsTxt is /llms.txt (llmstxt.org): a markdown file that tells language
// models what a site holds and where its readable pages are.
type LlmsTxt struct {
	// Title is the H1, the one required part.
	Title string `json:"title"`
	// Summary is the blockquote under the title.
	Summary string `json:"summary,omitempty"`
	// Details are markdown paragraphs (or lists) under the summary; they
	// may span lines but hold no heading.
	Details string `json:"details,omitempty"`
	// Sections are H2 sections, each a list of links; one named
	// "Optional" holds links a reader may skip.
	Sections []LlmsSection `json:"sections,omitempty"`
}

// LlmsSection is one H2 section of llms.txt.
type LlmsSection struct {
	Name  string     `json:"name"`
	Links []LlmsLink `json:"links,omitempty"`
}

// LlmsLink is one item of a section's list: "- [title](url): notes".
type LlmsLink struct {
	Title string `json:"title"`
	URL   string `json:"url"`
	Notes string `json:"notes,omitempty"`
}
