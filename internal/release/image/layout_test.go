package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeRelease writes a release of two Linux archives and a macOS one,
// each holding the binary "bin-GOARCH", and checksums.txt.
func fakeRelease(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var sums strings.Builder
	for _, p := range []string{"linux_amd64", "linux_arm64", "darwin_arm64"} {
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		tw := tar.NewWriter(gz)
		bin := []byte("bin-" + p)
		tw.WriteHeader(&tar.Header{Name: "discgen", Mode: 0o755, Size: int64(len(bin)), Typeflag: tar.TypeReg})
		tw.Write(bin)
		tw.Close()
		gz.Close()
		name := "discgen_1.2.3_" + p + ".tar.gz"
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(buf.Bytes()), name)
	}
	if err := os.WriteFile(filepath.Join(dir, "checksums.txt"), []byte(sums.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readLayout reads an oci-archive into its files by name.
func readLayout(t *testing.T, name string) map[string][]byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		files[h.Name] = b
	}
}

// blob returns the blob of descriptor d after checking its digest and size.
func blob(t *testing.T, files map[string][]byte, d descriptor) []byte {
	t.Helper()
	b, ok := files["blobs/sha256/"+strings.TrimPrefix(d.Digest, "sha256:")]
	sum := sha256.Sum256(b)
	if !ok || "sha256:"+hex.EncodeToString(sum[:]) != d.Digest || int64(len(b)) != d.Size {
		t.Fatalf("blob %s: missing or not its digest and size", d.Digest)
	}
	return b
}

// The layout is an OCI image layout whose index, under the tag, lists one
// image per Linux platform, each blob named by its digest; each image is
// one layer with the platform's binary at /usr/local/bin/discgen, its
// entrypoint. The same release gives the same bytes.
func TestLayout(t *testing.T) {
	dir := fakeRelease(t)
	out := filepath.Join(t.TempDir(), "image.tar")
	epoch := time.Unix(1793491200, 0).UTC()
	if err := write(dir, out, "", epoch); err != nil {
		t.Fatal(err)
	}
	files := readLayout(t, out)
	if string(files["oci-layout"]) != `{"imageLayoutVersion":"1.0.0"}` {
		t.Errorf("oci-layout: %q", files["oci-layout"])
	}
	var top index
	if err := json.Unmarshal(files["index.json"], &top); err != nil {
		t.Fatal(err)
	}
	if len(top.Manifests) != 1 || top.Manifests[0].MediaType != mediaIndex || top.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != "1.2.3" {
		t.Fatalf("index.json: %s", files["index.json"])
	}
	var platforms index
	json.Unmarshal(blob(t, files, top.Manifests[0]), &platforms)
	if len(platforms.Manifests) != 2 {
		t.Fatalf("%d images, want linux amd64 and arm64", len(platforms.Manifests))
	}
	for _, d := range platforms.Manifests {
		arch := d.Platform.Architecture
		if d.Platform.OS != "linux" || d.MediaType != mediaManifest {
			t.Errorf("image %+v", d)
		}
		var m manifest
		json.Unmarshal(blob(t, files, d), &m)
		var c imageConfig
		json.Unmarshal(blob(t, files, m.Config), &c)
		if c.Architecture != arch || c.OS != "linux" || strings.Join(c.Config.Entrypoint, " ") != "/usr/local/bin/discgen" || c.Created != "2026-11-01T00:00:00Z" {
			t.Errorf("%s config: %+v", arch, c)
		}
		if len(m.Layers) != 1 {
			t.Fatalf("%s: %d layers", arch, len(m.Layers))
		}
		zr, err := gzip.NewReader(bytes.NewReader(blob(t, files, m.Layers[0])))
		if err != nil {
			t.Fatal(err)
		}
		layer, _ := io.ReadAll(zr)
		if sum := sha256.Sum256(layer); c.RootFS.DiffIDs[0] != "sha256:"+hex.EncodeToString(sum[:]) {
			t.Errorf("%s: diff_id %s is not the layer's", arch, c.RootFS.DiffIDs[0])
		}
		tr := tar.NewReader(bytes.NewReader(layer))
		var names []string
		for {
			h, err := tr.Next()
			if err != nil {
				break
			}
			names = append(names, h.Name)
			if h.Name == binPath {
				b, _ := io.ReadAll(tr)
				if string(b) != "bin-linux_"+arch || h.Mode != 0o755 || !h.ModTime.Equal(epoch) {
					t.Errorf("%s: %s is %q, mode %o, time %v", arch, binPath, b, h.Mode, h.ModTime)
				}
			}
		}
		if strings.Join(names, " ") != "tmp/ usr/ usr/local/ usr/local/bin/ usr/local/bin/discgen" {
			t.Errorf("%s layer: %v", arch, names)
		}
	}

	again := filepath.Join(t.TempDir(), "image.tar")
	if err := write(dir, again, "", epoch); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(out)
	b, _ := os.ReadFile(again)
	if !bytes.Equal(a, b) {
		t.Error("two layouts of one release differ")
	}
}
