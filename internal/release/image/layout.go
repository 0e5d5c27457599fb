package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/discgen/discgen/internal/release/dist"
)

// The OCI media types (https://github.com/opencontainers/image-spec).
const (
	mediaIndex    = "application/vnd.oci.image.index.v1+json"
	mediaManifest = "application/vnd.oci.image.manifest.v1+json"
	mediaConfig   = "application/vnd.oci.image.config.v1+json"
	mediaLayer    = "application/vnd.oci.image.layer.v1.tar+gzip"
)

const binPath = "usr/local/bin/discgen"

type descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Platform    *platform         `json:"platform,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

type platform struct {
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
}

type index struct {
	SchemaVersion int               `json:"schemaVersion"`
	MediaType     string            `json:"mediaType"`
	Manifests     []descriptor      `json:"manifests"`
	Annotations   map[string]string `json:"annotations,omitempty"`
}

type manifest struct {
	SchemaVersion int               `json:"schemaVersion"`
	MediaType     string            `json:"mediaType"`
	Config        descriptor        `json:"config"`
	Layers        []descriptor      `json:"layers"`
	Annotations   map[string]string `json:"annotations,omitempty"`
}

type imageConfig struct {
	Created      string `json:"created"`
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
	Config       struct {
		Entrypoint []string `json:"Entrypoint"`
		Env        []string `json:"Env"`
		WorkingDir string   `json:"WorkingDir"`
	} `json:"config"`
	RootFS struct {
		Type    string   `json:"type"`
		DiffIDs []string `json:"diff_ids"`
	} `json:"rootfs"`
	History []struct {
		Created   string `json:"created"`
		CreatedBy string `json:"created_by"`
	} `json:"history"`
}

// blobs holds the content-addressed files of the layout.
type blobs map[string][]byte

func (b blobs) add(mediaType string, data []byte) descriptor {
	sum := sha256.Sum256(data)
	d := "sha256:" + hex.EncodeToString(sum[:])
	b[d] = data
	return descriptor{MediaType: mediaType, Digest: d, Size: int64(len(data))}
}

func (b blobs) addJSON(mediaType string, v any) (descriptor, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return descriptor{}, err
	}
	return b.add(mediaType, data), nil
}

// write writes the oci-archive of the release in distDir's Linux binaries
// to out.
func write(distDir, out, tag string, epoch time.Time) error {
	as, err := dist.Archives(distDir)
	if err != nil {
		return err
	}
	version := as[0].Version
	if tag == "" {
		tag = version
	}
	annotations := map[string]string{
		"org.opencontainers.image.version":  version,
		"org.opencontainers.image.source":   "https://github.com/discgen/discgen",
		"org.opencontainers.image.licenses": "Apache-2.0",
		"org.opencontainers.image.created":  epoch.Format(time.RFC3339),
	}
	b := blobs{}
	var images []descriptor
	for _, a := range as {
		if a.GOOS != "linux" {
			continue
		}
		bin, _, err := dist.Unpack(distDir, a)
		if err != nil {
			return err
		}
		d, err := image(b, bin, a.GOARCH, epoch, annotations)
		if err != nil {
			return err
		}
		images = append(images, d)
	}
	if len(images) == 0 {
		return fmt.Errorf("%s: no linux archive in the release", distDir)
	}
	top, err := b.addJSON(mediaIndex, index{SchemaVersion: 2, MediaType: mediaIndex, Manifests: images, Annotations: annotations})
	if err != nil {
		return err
	}
	top.Annotations = map[string]string{"org.opencontainers.image.ref.name": tag}
	layout, err := json.Marshal(index{SchemaVersion: 2, MediaType: mediaIndex, Manifests: []descriptor{top}})
	if err != nil {
		return err
	}
	files := []tarFile{
		{name: "oci-layout", data: []byte(`{"imageLayoutVersion":"1.0.0"}`)},
		{name: "index.json", data: layout},
		{name: "blobs/", dir: true},
		{name: "blobs/sha256/", dir: true},
	}
	for _, d := range sortedKeys(b) {
		files = append(files, tarFile{name: "blobs/sha256/" + d[len("sha256:"):], data: b[d]})
	}
	data, err := tarball(files, epoch)
	if err != nil {
		return err
	}
	tmp := out + ".tmp"
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}

// image adds one platform's layer, config and manifest to b and returns
// the manifest's descriptor.
func image(b blobs, bin []byte, arch string, epoch time.Time, annotations map[string]string) (descriptor, error) {
	layer, err := tarball([]tarFile{
		{name: "tmp/", dir: true, mode: 0o1777},
		{name: "usr/", dir: true},
		{name: "usr/local/", dir: true},
		{name: "usr/local/bin/", dir: true},
		{name: binPath, data: bin, mode: 0o755},
	}, epoch)
	if err != nil {
		return descriptor{}, err
	}
	diff := sha256.Sum256(layer)
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if _, err := zw.Write(layer); err != nil {
		return descriptor{}, err
	}
	if err := zw.Close(); err != nil {
		return descriptor{}, err
	}
	layerDesc := b.add(mediaLayer, gz.Bytes())

	var c imageConfig
	c.Created = epoch.Format(time.RFC3339)
	c.Architecture, c.OS = arch, "linux"
	c.Config.Entrypoint = []string{"/" + binPath}
	c.Config.Env = []string{"PATH=/usr/local/bin"}
	c.Config.WorkingDir = "/"
	c.RootFS.Type = "layers"
	c.RootFS.DiffIDs = []string{"sha256:" + hex.EncodeToString(diff[:])}
	c.History = append(c.History, struct {
		Created   string `json:"created"`
		CreatedBy string `json:"created_by"`
	}{c.Created, "discgen internal/release/image: /" + binPath})
	configDesc, err := b.addJSON(mediaConfig, c)
	if err != nil {
		return descriptor{}, err
	}
	d, err := b.addJSON(mediaManifest, manifest{SchemaVersion: 2, MediaType: mediaManifest, Config: configDesc, Layers: []descriptor{layerDesc}, Annotations: annotations})
	if err != nil {
		return descriptor{}, err
	}
	d.Platform = &platform{Architecture: arch, OS: "linux"}
	return d, nil
}
