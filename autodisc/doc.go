// Package autodisc reads a site's autodisc directories as a consumer does
// (seed 000) and answers, for a URL path, which authority governs it and
// where each autodisc file's value comes from.
//
// A [Reader] starts at autodisc/ in the root of a file system that holds the
// site as it is served, reads autodisc/index.txt and
// autodisc/subdirectories.txt, and follows the delegation whose space holds
// the path to the delegatee's own autodisc directory, level by level, down to
// the deepest authority whose space holds the path. The sources of the files
// are then decided by [pathspace.Resolve] on the authorities read.
//
// # Where a delegatee's directory is
//
// A delegation's space is relative to its delegator (seed 000 section 4.2);
// its delegatee's files are in the directory whose URL path is the space
// followed by "autodisc/". For a wildcard delegation such as "/~*/" the
// delegatee is the instance the path falls in: for "/~alice/x.html" the
// space "/~alice/", whose files are in ~alice/autodisc. Segments are
// percent-decoded to name directories ("/caf%C3%A9/" is café/autodisc); a
// segment that cannot name a directory (an encoded "/" or "\", a control
// character, an empty segment) leaves the delegatee unread, and the files
// delegated to it undefined.
//
// # What a directory holds
//
// When index.txt exists, the directory holds the files it lists that exist:
// seed 000 section 4.1 lets a consumer ignore files it does not list, and the
// reader does, with a warning, so that a publisher sees what a consumer may
// miss. Without index.txt, the directory holds the files in it. index.txt is
// read in every directory for that purpose: it describes its own directory
// and is not a value that applies to URL paths, so it is left out of the
// files a [Result] reports.
//
// # Seed 000 section 4.2, as applied
//
//   - With an only list, the listed files are delegated and others are
//     undefined in the delegatee's space; files the delegatee holds that it
//     was not given are ignored (with a warning).
//   - With an except list, the excepted files come from the delegator, and
//     the delegatee's copies are ignored.
//   - subdirectories.txt is always delegated.
//   - A delegatee may delegate only files it holds: [pathspace.Granted]
//     intersects each grant with the delegator's own.
//   - A delegated file missing from the delegatee's directory is undefined.
//     Section 4.2 contradicts itself here for except-lists: its except
//     paragraph says the files not excepted "are inherited from the
//     delegating directory", its general rule that a delegated file the
//     delegatee lacks "is not defined". The reader takes the general rule
//     (the delegatee was given authority for the file and chose not to
//     define it) and says so in the file's reason where the other reading
//     would give a value.
//   - A delegation that leaves its delegator's space ("..", "%2e%2e", "\",
//     empty segments, and every other path [pathspace.Parse] refuses) is
//     ignored with a warning. Of two delegations whose spaces intersect, the
//     first in file order is followed, with a warning.
//
// # Limits
//
// Files are read only when they are regular files no larger than
// [DefaultMaxFileSize] (a larger file is refused with a warning and counts
// as absent), at most [DefaultMaxEntries] names are taken from a directory
// or an index.txt, and at most [DefaultMaxDepth] delegations are followed:
// files delegated past that depth are undefined, as seed 000 section 4.2
// requires of delegatees a consumer does not visit. A file system whose
// links lead a delegatee back to an ancestor therefore ends at the depth
// limit. Warnings beyond [MaxWarnings] are counted, not listed.
package autodisc
