// Package model is a manifest as the stages after validation take it:
// a site (Site) or a tenant (Tenant) that validation found valid, and
// the readings of manifest values that validation checks and rendering
// writes alike (the output path of a site-relative URL, the crawlers a
// verified group names, the robots.txt forms a usage writes).
//
// The stage is in the type. validate.Site and validate.Tenant return a
// model, or nil when the manifest is not valid; generate.Site,
// generate.Tenant and generate's other functions of a site that was
// validated (SiteAccess, SiteThrottle, SiteVerified, SiteRights,
// HeaderUsage, Redirects and the --server warnings) take one. A manifest
// that has not passed validation has no model, so it cannot reach
// rendering, and the precondition a comment used to state is one the
// compiler checks. Package generate imports no validate: what it reads
// of a manifest's meaning is here.
//
// Only validation makes a model. Go has no constructor private to one
// other package, so this is how it is held:
//
//   - A model's fields are unexported: no other package can write a
//     Site or a Tenant, only take one.
//   - NewSite and NewTenant, the only constructors, ask for a seal.Key,
//     a type of package internal/seal, made by its function New. Go's
//     rule for internal/ keeps every other module from importing it, so
//     no code outside discgen can name the key nor call New. A zero key,
//     which a generic function can come by without naming its type, is
//     refused: the constructors panic unless the key is Valid, that is,
//     came from New.
//   - Within the module, internal/layout's TestSealImporters fails when
//     a package other than model and validate imports internal/seal. A
//     test may import it, to make the model of a manifest validation
//     would refuse and check that rendering still refuses it cleanly.
//   - internal/layout's TestStageArrows fails when generate imports
//     validate.
//
// A model shares the document it was made of (Doc): rendering reads its
// values and positions there. Nothing after validation changes a
// manifest's values; a caller that did would hold a model that states
// what is no longer true.
//
// validate makes a model only of a manifest that loaded with no error
// (manifest.Doc.SchemaOK) and drew no error of its own: validate's rules
// skip what the schema refused, so their silence alone does not make a
// manifest valid.
package model
