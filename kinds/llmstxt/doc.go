// Package llmstxt is the kind of /llms.txt, given by the manifest's
// llms_txt (kind.go: checked, rendered, imported), and holds the checks
// that keep a manifest's values from changing the file's structure.
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
// Every title, summary, section name and note is one line, written as it
// is: the llmstxt.org reference parser (AnswerDotAI/llms-txt) reads the
// file with regular expressions and no markdown unescaping, so an escaped
// value would reach it with its backslashes. [Unreadable] says why a value
// cannot be written so that both it and a CommonMark reader read it as
// given (markup a pair of delimiters would open, a bracket in link text,
// ...), for validation to refuse; [Render] escapes such a value with
// [Inline] all the same, so that no value, validated or not, changes the
// file's structure. URLs are written
// as link destinations in which spaces, parentheses, angle brackets and
// backslashes are percent-encoded ([Destination]). [Heading] finds a
// heading in the details, which would open a section of its own.
package llmstxt
