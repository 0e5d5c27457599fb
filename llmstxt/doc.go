// Package llmstxt renders /llms.txt and holds the checks that keep a
// manifest's values from changing the file's structure.
//
// The file is the markdown file of the llmstxt.org proposal (Jeremy
// Howard, Answer.AI, 3 September 2024; the text at https://llmstxt.org/
// is what this package follows).
//
// The file is, in this order: an H1 with the title (the one required
// part), a blockquote with the summary, details (markdown paragraphs or
// lists, no headings), then H2 sections, each a list of links written
// "- [title](url): notes". A section named "Optional" holds links a reader
// may skip when its context is short; the proposal gives that one name a
// meaning, so [Optional] is compared exactly.
//
// Every title, summary, section name and note is one line. [Inline]
// escapes the markdown characters that could open a heading, a link, an
// image, emphasis, code, an HTML tag or an entity, or end the link text,
// so a value is read as the text it is and nothing more. URLs are written
// as link destinations in which spaces, parentheses, angle brackets and
// backslashes are percent-encoded ([Destination]). [Heading] finds a
// heading in the details, which would open a section of its own.
package llmstxt
