// Package wellknown holds the semantics of the resources discgen publishes
// under /.well-known/ (RFC 8615): which names may follow the prefix, which of
// them the IANA "Well-Known URIs" registry knows, and the JSON
// well-known files checked against JSON Schemas. (security.txt and the
// other files discgen writes from keys of their own are kinds, under
// kinds/.)
//
// Names are one or more RFC 3986 path segments (segment-nz) joined by "/"
// (RFC 8615 lets a well-known URI have sub-paths: matrix/server). The
// package ships a dated copy of the registry's names (registry.txt); a first
// segment missing from it is the caller's cue for a warning, never an error,
// because the copy ages.
//
// JSON well-known files are checked against a JSON
// Schema with [ValidateJSON]: one discgen ships ([Shipped]; schemas/ holds
// dated copies, their sources and licences named in schemas/NOTICE.md) or
// one a manifest names ([CompileSchema]), each problem at the line and
// column of the file, found through a map from JSON Pointers to offsets
// (kinds/kit). Work is bounded: MaxSchemaBytes, MaxSubschemas,
// MaxSchemaDepth, MaxJSONProblems and a nesting limit, and a value whose
// check against its schema would take more than MaxSchemaSteps is not
// checked but refused with a *CostError (schemacost.go).
package wellknown
