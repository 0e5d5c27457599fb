// Package wellknown checks the JSON files discgen publishes under
// /.well-known/ from well_known.files against JSON Schemas; the names
// that may follow the prefix are internal/rfc8615's, and the files
// discgen writes from keys of their own are kinds, under kinds/.
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
