package dist

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeRelease writes a release directory: one archive per name, holding
// the binary "bin-NAME" and a LICENSE, and checksums.txt.
func fakeRelease(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	var sums strings.Builder
	for _, name := range names {
		var buf bytes.Buffer
		bin := []byte("bin-" + name)
		if strings.HasSuffix(name, ".zip") {
			zw := zip.NewWriter(&buf)
			for n, data := range map[string][]byte{"discgen.exe": bin, "LICENSE": []byte("licence")} {
				w, _ := zw.Create(n)
				w.Write(data)
			}
			zw.Close()
		} else {
			gz := gzip.NewWriter(&buf)
			tw := tar.NewWriter(gz)
			for _, f := range []struct {
				n    string
				data []byte
			}{{"LICENSE", []byte("licence")}, {"discgen", bin}} {
				tw.WriteHeader(&tar.Header{Name: f.n, Mode: 0o755, Size: int64(len(f.data)), Typeflag: tar.TypeReg})
				tw.Write(f.data)
			}
			tw.Close()
			gz.Close()
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(buf.Bytes()), name)
	}
	fmt.Fprintf(&sums, "%x  discgen_1.2.3_linux_amd64.cdx.json\n", sha256.Sum256(nil))
	if err := os.WriteFile(filepath.Join(dir, "checksums.txt"), []byte(sums.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestArchives(t *testing.T) {
	dir := fakeRelease(t, "discgen_1.2.3_linux_amd64.tar.gz", "discgen_1.2.3_windows_arm64.zip")
	as, err := Archives(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 2 || as[0].Version != "1.2.3" || as[0].GOOS != "linux" || as[0].GOARCH != "amd64" || as[1].GOOS != "windows" || as[1].GOARCH != "arm64" {
		t.Fatalf("archives: %+v", as)
	}
	for _, a := range as {
		bin, lic, err := Unpack(dir, a)
		if err != nil || string(bin) != "bin-"+a.Name || string(lic) != "licence" {
			t.Errorf("%s: %q, %q, %v", a.Name, bin, lic, err)
		}
	}

	// One byte changed: refused.
	name := filepath.Join(dir, as[0].Name)
	data, _ := os.ReadFile(name)
	data[len(data)/2] ^= 1
	os.WriteFile(name, data, 0o644)
	if _, _, err := Unpack(dir, as[0]); err == nil || !strings.Contains(err.Error(), "does not match checksums.txt") {
		t.Errorf("corrupt archive: %v", err)
	}

	if _, err := Archives(fakeRelease(t, "discgen_1.2.3_linux_amd64.tar.gz", "discgen_1.2.4_linux_arm64.tar.gz")); err == nil || !strings.Contains(err.Error(), "is version 1.2.4") {
		t.Errorf("two versions: %v", err)
	}
	if _, err := Archives(fakeRelease(t)); err == nil || !strings.Contains(err.Error(), "names no discgen archive") {
		t.Errorf("no archive: %v", err)
	}
	if _, err := Archives(t.TempDir()); err == nil {
		t.Error("no checksums.txt: no error")
	}
}
