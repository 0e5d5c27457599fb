// Package publish runs the build pipeline: the site, then each tenant from
// discovery to disk, on a bounded pool of workers.
//
// Run is the one entry point of a build (`discgen build`, `--check`,
// `--dry-run`, `--tenant`); LoadSite loads and renders the site manifest
// alone, for the commands that read a build. Every tenant manifest is
// hostile input: it is found without following a symlink, read without
// waiting and within a size limit, validated against the space its
// directory gives it, rendered, and written only inside its own
// directory, through the handle the walk opened (package confined).
// A tenant's failure is its own unit; it never stops the others, nor
// does a panic while it is built (recover.go).
//
// # Where things are
//
// In the order a tenant goes through them:
//
//   - publish.go: Options, the units a build reports, Run.
//   - site.go: the site manifest, its own tree, its delegations.
//   - sizing.go: how many workers, batches and writers the host's limits
//     (internal/hostlimits) allow, or the one-line refusal when they
//     allow too few.
//   - glob.go: the tenants globs, walked from their fixed prefix one
//     component at a time.
//   - pipeline.go: the workers, and each tenant's load, key and render.
//   - budget.go: the memory budget a worker draws on, by manifest size,
//     before it parses, and by the size of a tenant's record and stat
//     cache before output reads them.
//   - refusal.go: a refused tenant stays refused, with the same reasons,
//     until its inputs change.
//   - limits.go: what a tenant may write (files and bytes).
//   - write.go: a tenant's output options, its owner and its own state
//     directory (for its owner's `--tenant` build).
//   - batch.go: plans handed to output.Writer.ApplyAll in batches that share one
//     journal and one flush.
//   - recover.go: a panic refuses the tenant it happened for (or the
//     batch being applied) as a bug in discgen; the build goes on.
//
// Scale, memory and the host's limits are measured in BENCHMARKS.md
// (BenchmarkScale, BenchmarkRenderTenants, the TestHost* tests).
package publish
