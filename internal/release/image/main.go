// Command image writes discgen's container image from a release, without a
// container daemon or a base image: an OCI image layout (as a tar, what
// podman and skopeo call an oci-archive) holding a multi-platform index of
// linux/amd64 and linux/arm64 images. Each image is one layer on an empty
// base: the static discgen binary at /usr/local/bin/discgen (the
// entrypoint) and an empty /tmp.
//
//	image -dist DIR -o FILE.tar [-tag NAME]
//
// -dist is a release directory (see internal/release/dist); each archive
// is checked against checksums.txt before its binary is taken. The tag
// (default the release's version) names the index in the layout:
// podman run oci-archive:FILE.tar:TAG. The bytes depend only on the
// binaries, the tag and SOURCE_DATE_EPOCH (the files' and images' time;
// 0 without it).
//
// The image holds no CA certificates: discgen build needs none. discgen
// verify, which fetches https:// URLs, needs the host's mounted at
// /etc/ssl/certs (or SSL_CERT_FILE naming a mounted bundle).
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	distDir := flag.String("dist", "dist", "the release directory")
	out := flag.String("o", "", "the oci-archive to write")
	tag := flag.String("tag", "", "the tag of the image in the layout (default: the release's version)")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: image -dist DIR -o FILE.tar [-tag NAME]")
		os.Exit(2)
	}
	epoch := time.Unix(0, 0).UTC()
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "image: SOURCE_DATE_EPOCH %q: not a number of seconds\n", s)
			os.Exit(2)
		}
		epoch = time.Unix(sec, 0).UTC()
	}
	if err := write(*distDir, *out, *tag, epoch); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}
