// Command sbom writes a CycloneDX 1.5 JSON SBOM of a Go binary from the
// module information Go embeds in it: the main module, every module
// linked in with its checksum, the Go release and the build settings
// (what go version -m prints). The release configuration runs it on each
// binary it builds.
//
//	sbom [-version V] -o FILE BINARY
//
// The document depends only on the binary, -version and SOURCE_DATE_EPOCH
// (its timestamp; none without it), so a reproducible binary has a
// reproducible SBOM.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	version := flag.String("version", "", "the version the binary was released as (default: the one Go recorded)")
	out := flag.String("o", "", "the file to write")
	flag.Parse()
	if flag.NArg() != 1 || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: sbom [-version V] -o FILE BINARY")
		os.Exit(2)
	}
	doc, err := document(flag.Arg(0), *version, os.Getenv("SOURCE_DATE_EPOCH"))
	if err == nil {
		err = os.WriteFile(*out, doc, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sbom:", err)
		os.Exit(1)
	}
}
