// Package adopt turns existing discovery files into a manifest: a
// robots.txt (Robots), a whole built tree (Dir), or a live site (Fetch).
//
// From a robots.txt, the manifest's emitted robots.txt gives the input's
// RFC 9309 verdicts, as Google's parser reads it, for every agent the input
// names and for the agents it does not name, for every URL in RFC 3986
// normal form. Rules are merged per agent name, as RFC 9309 merges the
// groups of one agent; agents with the same merged rules share a group.
// What cannot be carried over is kept where it can be and reported as a
// warning at its line:
//
//   - comments become YAML comments beside the group they belong to;
//   - unknown group lines (Clean-param, Request-rate, ...) become the
//     group's extensions; unknown lines outside any group, and values
//     discgen refuses, become YAML comments;
//   - a User-agent value that is more than a crawler's name
//     (Googlebot/2.1, Mozilla/5.0 ...) is imported as the name without
//     what follows it (Googlebot); a name with digits or dots (MJ12bot) is
//     kept as written, as the manifest accepts it, and loses nothing: the
//     built file has the same line, which every reader reads as it read
//     the input's; a value with no name is dropped, since no crawler
//     matches it;
//   - a rule no normalised URL can match (a space, a quote, a path without
//     a leading "/") is dropped: it decides nothing;
//   - reader-dependent rules are reported as such: an escaped unreserved
//     character (%7E), which RFC 9309 decodes and Google compares
//     literally (the manifest follows RFC 9309), a "$" inside a pattern,
//     which the manifest cannot hold, and a "%" that starts no escape;
//     and lines a 1996 reader of the input obeys differently, whose
//     RFC 9309 verdict the manifest keeps (and the built file gives to
//     both readers).
//
// Work is bounded: every file read is at most MaxFile bytes, and a
// robots.txt naming more agents or holding more rule lines than a
// manifest may (validate.MaxAgentNames, validate.MaxRuleLines) is refused
// with one error before it is converted.
//
// From a directory, every discovery file a build writes is read back: the
// manifest builds the same bytes where the tree was discgen's own output.
// Files that no manifest could produce are reported. An llms.txt becomes
// llms_txt when it has the form discgen writes; any other is left out
// with a warning. The api-catalog and an agent card are carried as
// well-known files, byte for byte. ads.txt and app-ads.txt become ads_txt
// and app_ads_txt (a line that is neither a record nor an ads.txt 1.1
// variable is reported and left out); gpc.json, traffic-advice and
// atproto-did become their well_known keys when the manifest builds them
// byte for byte, and well-known files otherwise, as the app association
// files are (wellknownfiles.go). The MCP catalogue becomes well_known.mcp
// the same way when its cards are served elsewhere (each name taken from
// its identifier, reported); one that points at cards beside it stays a
// well-known file with them.
//
// The policy page discgen writes (policy_page) is found among the tree's
// .html files by the generator tag it carries (policyMarker), within a
// bounded walk (policypage.go), and becomes policy_page at its path; the
// server rules it reports (enforce, throttle, verified) are in no built
// file, which one warning says.
package adopt
