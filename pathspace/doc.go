// Package pathspace is the algebra of delegated URL-path spaces: the parts of
// a site's address space that an autodisc directory hands to another one
// through subdirectories.txt (seed 000, section 4.2).
//
// A delegation path is written relative to the delegator's own space, with
// optional leading and trailing slashes, and is always read as if it ended
// with "/". Its space is every URL path that begins with the delegator's path,
// then the delegation path, then "/". So the delegation "projects" of the root
// is the space "/projects/": it holds "/projects/" and "/projects/a/b.html",
// but not "/projects" or "/projectsX/".
//
// # Wildcards
//
// An asterisk matches any run of characters other than "/" inside one
// segment, the empty run included (seed 000 section 4.2: "any number of
// characters"). So "~*" holds "/~alice/..." and also "/~/...". Consecutive
// asterisks mean the same as one. A literal asterisk is written %2A; in a URL
// path given to [Space.Contains] a raw "*" is that literal character.
//
// # Canonical form
//
// Paths are compared in one canonical form, the one robots.txt paths are
// emitted in (design section 4): escapes of unreserved characters are decoded
// ("%7E" is "~"), other escapes are upper-cased, and bytes that may not
// appear raw in a path segment (non-ASCII, '"', '<', '|', ...) are
// percent-encoded, non-ASCII as UTF-8. Escapes of reserved characters stay
// distinct from the raw characters ("%21" is not "!"), as RFC 3986 section
// 6.2.2.2 allows. Matching is done per character: an escape is one character,
// so "*A9" does not match "%C3%A9".
//
// # Safety
//
// A delegation must stay inside its delegator's space (seed 000 sections 4.2
// and 6; design section 4): [Parse] rejects "." and ".." segments in any
// spelling, backslashes, empty segments, "?", "#", whitespace, control
// characters, an encoded "/" inside a segment, invalid escapes and the empty
// path, each with a typed [*Error].
//
// # Relations
//
// [Overlap] decides whether two spaces share a URL path, [Within] whether one
// space lies inside another, and [CheckSet] finds every intersecting pair in
// a set of sibling delegations, which seed 000 section 4.2 makes an error
// whatever the order of the delegations. [Resolve] answers, for a URL path,
// which authority governs it and where each autodisc file's value comes from.
package pathspace
