// Package dist reads a discgen release directory as the release
// configuration (.goreleaser.yaml) writes it: checksums.txt and one
// discgen_VERSION_OS_ARCH archive per platform. The tools that package a
// release for npm and as an image take the binaries from it, each archive
// checked against checksums.txt first.
package dist

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// MaxBinary bounds a binary read from an archive.
const MaxBinary = 256 << 20

// Archive is one platform's release archive.
type Archive struct {
	Name    string // discgen_1.2.3_linux_amd64.tar.gz
	Version string // 1.2.3
	GOOS    string // linux, darwin, windows
	GOARCH  string // amd64, arm64
	SHA256  string // hex, from checksums.txt
}

var archiveName = regexp.MustCompile(`^discgen_([0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?)_(linux|darwin|windows)_(amd64|arm64)\.(tar\.gz|zip)$`)

// Archives reads dir/checksums.txt and returns the archives it names, all
// of one version.
func Archives(dir string) ([]Archive, error) {
	f, err := os.Open(filepath.Join(dir, "checksums.txt"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var as []Archive
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			return nil, fmt.Errorf("checksums.txt:%d: want \"SHA256  NAME\"", n)
		}
		m := archiveName.FindStringSubmatch(name)
		if m == nil {
			continue // an SBOM, not an archive
		}
		if len(as) > 0 && as[0].Version != m[1] {
			return nil, fmt.Errorf("checksums.txt:%d: %s is version %s, %s is %s", n, name, m[1], as[0].Name, as[0].Version)
		}
		as = append(as, Archive{Name: name, Version: m[1], GOOS: m[2], GOARCH: m[3], SHA256: sum})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(as) == 0 {
		return nil, fmt.Errorf("%s: checksums.txt names no discgen archive", dir)
	}
	return as, nil
}

// Unpack returns the discgen binary and the LICENSE (nil if absent) in
// dir's archive a, after checking the archive against its checksum.
func Unpack(dir string, a Archive) (bin, license []byte, err error) {
	data, err := os.ReadFile(filepath.Join(dir, a.Name))
	if err != nil {
		return nil, nil, err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != a.SHA256 {
		return nil, nil, fmt.Errorf("%s: SHA-256 %x does not match checksums.txt's %s", a.Name, sum, a.SHA256)
	}
	exe := "discgen"
	if strings.HasSuffix(a.Name, ".zip") {
		exe = "discgen.exe"
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", a.Name, err)
		}
		for _, f := range zr.File {
			if f.Name != exe && f.Name != "LICENSE" {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return nil, nil, err
			}
			b, err := readBounded(a.Name, rc)
			rc.Close()
			if err != nil {
				return nil, nil, err
			}
			if f.Name == exe {
				bin = b
			} else {
				license = b
			}
		}
	} else {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", a.Name, err)
		}
		tr := tar.NewReader(zr)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %v", a.Name, err)
			}
			if h.Typeflag != tar.TypeReg || (h.Name != exe && h.Name != "LICENSE") {
				continue
			}
			b, err := readBounded(a.Name, tr)
			if err != nil {
				return nil, nil, err
			}
			if h.Name == exe {
				bin = b
			} else {
				license = b
			}
		}
	}
	if bin == nil {
		return nil, nil, fmt.Errorf("%s: no %s in it", a.Name, exe)
	}
	return bin, license, nil
}

func readBounded(name string, r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxBinary+1))
	if err == nil && len(b) > MaxBinary {
		err = fmt.Errorf("%s: binary over %d bytes", name, MaxBinary)
	}
	return b, err
}
