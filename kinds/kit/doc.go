// Package kit is what the discovery-file kinds share: the small pieces
// that more than one kind needs and that belong to no single one.
//
//   - finding.go: [Finding], a problem in a kind's manifest value at a
//     field relative to its manifest key.
//   - jsonpos.go: [PositionsOf] maps every JSON Pointer of a JSON text to
//     the offset where its value starts, bounded by [MaxJSONDepth].
//   - jsoncheck.go: [ParseJSON] and [JSONChecker], a JSON file checked by
//     shape, each [JSONProblem] at the line and column of its value;
//     [JSONDiagnostics] turns them into lint diagnostics.
//   - jsonschema.go: [ValidateJSON], a JSON file checked against a JSON
//     Schema, a kind's ([CompileShipped], kit.SchemaShipper) or one a
//     manifest names ([CompileSchema]), each problem at the line and
//     column of the file. Work is bounded: [MaxSchemaBytes],
//     [MaxSubschemas], [MaxSchemaDepth], [MaxJSONProblems] and the
//     nesting limit, and a value whose check against its schema would
//     take more than [MaxSchemaSteps] is not checked but refused with a
//     [*CostError] (schemacost.go).
//   - langtag.go: [ValidLanguageTag], RFC 5646 well-formedness.
//   - siteref.go: [CheckSiteRef] and [ResolveSiteRef], a URL of a
//     manifest that resolves against site.url, checked and written in
//     canonical form.
//   - text.go: [Col], the column of a byte offset in characters,
//     [Severity], [QuoteShort] for messages, and [Plain] and [Clean], a
//     one-line value as the manifest accepts it.
//   - kind.go: [Kind], the interface a kind implements, [Build], what a
//     check or a rendering knows besides the manifest, and the optional
//     interfaces a stage finds by type assertion ([Dated]: a check that
//     judges a file's dates against the build's time, within
//     [ExpiresSoon] a warning).
//
// kit imports only diag, manifest (the typed model and its paths),
// internal/ and santhosh-tekuri/jsonschema/v5: a kind imports kit, never a stage, and a helper two kinds
// share comes down here rather than sideways into one of them.
package kit
