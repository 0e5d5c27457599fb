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
//
// Why ./image and ./sbom beside GoReleaser, which has stages for both:
//
//   - The SBOM is GoReleaser's: its sboms stage runs ./sbom as its
//     command instead of its default, syft, whose build would add a few
//     hundred modules to compile to read the list of modules Go already
//     embeds in each binary (go version -m).
//   - The image: GoReleaser's dockers stages build with a Docker daemon
//     (buildx) from a base image pulled from a registry, and its kos stage
//     (ko) builds the binary again rather than packing the checksummed
//     release binary, pulls its base image (cgr.dev/chainguard/static by
//     default) and, for a snapshot, loads the result into a local Docker
//     daemon (ko.local). The release's checks run where there is neither
//     a Docker daemon nor a registry, and they test the image under
//     podman from an OCI archive that holds the very binaries of the
//     archives; ./image writes that archive from the release directory,
//     on an empty base, with nothing fetched.
package release
