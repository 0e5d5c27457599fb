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
//
//	npm -bin FILE [-version V] [-os GOOS -arch GOARCH] [-license FILE] -o DIR
//
// -bin is the short way from a clone, without a release: the main package
// and the one platform package of a binary built here (by default for
// this machine's platform), at version V (0.0.0-local).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
)

func main() {
	dist := flag.String("dist", "dist", "the release directory")
	out := flag.String("o", "", "the directory to write the packages into")
	bin := flag.String("bin", "", "a discgen binary built here: its platform's package and the main one only")
	version := flag.String("version", "0.0.0-local", "with -bin: the packages' version")
	goos := flag.String("os", runtime.GOOS, "with -bin: the binary's GOOS")
	goarch := flag.String("arch", runtime.GOARCH, "with -bin: the binary's GOARCH")
	licenseFile := flag.String("license", "LICENSE", "with -bin: the licence to put in the packages")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: npm -dist DIR -o DIR, or npm -bin FILE [-version V] -o DIR")
		os.Exit(2)
	}
	var pkgs []string
	var err error
	if *bin != "" {
		var license []byte
		if license, err = os.ReadFile(*licenseFile); err == nil {
			pkgs, err = writeLocal(*bin, *version, *goos, *goarch, license, *out)
		}
	} else {
		pkgs, err = write(*dist, *out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "npm:", err)
		os.Exit(1)
	}
	for _, p := range pkgs {
		fmt.Println(p)
	}
}
