// Command npm writes discgen's npm packages from a release, in the
// esbuild style: a package "discgen" whose bin is a small Node.js shim,
// with one optional dependency per platform ("@discgen/linux-x64", ...),
// each holding that platform's binary, marked with os and cpu so npm
// installs only the one that fits. Nothing is downloaded at install time
// and no package has an install script.
//
//	npm -dist DIR -o DIR
//
// -dist is a release directory as the release configuration writes it:
// checksums.txt and the discgen_VERSION_OS_ARCH archives. Each archive is
// checked against checksums.txt before its binary is taken. -o receives
// one directory per package, ready for npm pack or npm publish.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	dist := flag.String("dist", "dist", "the release directory")
	out := flag.String("o", "", "the directory to write the packages into")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: npm -dist DIR -o DIR")
		os.Exit(2)
	}
	pkgs, err := write(*dist, *out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "npm:", err)
		os.Exit(1)
	}
	for _, p := range pkgs {
		fmt.Println(p)
	}
}
