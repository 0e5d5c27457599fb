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
// # What the walk reads of a tenant
//
// The first wildcard component of a tenants glob lists the directory
// that holds the tenants (users/ in users/*/public_html/*.yaml, /home in
// home/*/sites/*/autodisc.yaml): the host's, read in full, 512 entries at
// a time. Every directory below an entry it matched is that tenant's, by
// its place in the glob rather than by its owner: a host may make a
// tenant's directories itself (root's, writable by the tenant's group),
// and a place gives the same bound whoever runs the build. There the walk
// reads up to maxTenantEntries (4,096) entries together and finds up to
// maxTenantManifests (256) manifests or failures; past either it refuses
// the tenant in one line naming the bound, builds nothing of it, and
// builds every other tenant (TestTenantDirectoriesBounded). A tenant
// whose directory holds more files, such as a public_html of 5,000
// images under users/*/public_html/*.yaml, needs a glob naming its
// manifest (users/*/public_html/autodisc.yaml), which lists nothing of
// the tenant's. BENCHMARKS.md ("A tenant's directory of manifests,
// flooded") measures it.
//
// Scale, memory and the host's limits are measured in BENCHMARKS.md
// (BenchmarkScale, BenchmarkRenderTenants, the TestHost* tests).
package publish
