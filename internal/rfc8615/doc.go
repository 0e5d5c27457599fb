// Package rfc8615 holds the names that may follow /.well-known/ (RFC
// 8615, "Well-Known Uniform Resource Identifiers"): [CheckName], the
// grammar discgen accepts for an entry of well_known.files, [FileName],
// the tree path a name is served from, and a dated copy of the names the
// IANA "Well-Known URIs" registry holds ([Registered], registry.txt).
//
// Names are one or more RFC 3986 path segments (segment-nz) joined by "/"
// (RFC 8615 lets a well-known URI have sub-paths: matrix/server). A first
// segment missing from the registry copy is the caller's cue for a
// warning, never an error, because the copy ages.
package rfc8615
