// Package release tests discgen's release end to end. The release
// configuration (.goreleaser.yaml) builds a snapshot release of the
// committed tree in a clone; a second clone, elsewhere, with an empty Go
// build cache, must give the same bytes. From that release the Action's
// install script installs over a local HTTP server, the npm packages made
// by ./npm install into an Eleventy project, and the image made by ./image
// runs under podman. These tests are of the long tier (DISCGEN_LONG=1).
// Each skips, saying why, when a tool it needs (git, goreleaser, npm,
// podman) is absent, and fails instead under CI; .ci/run installs them.
//
// The subdirectories are the tools the release uses: ./sbom (the SBOM of
// a binary), ./dist (reading a release directory), ./npm and ./image.
package release
