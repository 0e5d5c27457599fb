package main

import (
	"archive/tar"
	"bytes"
	"sort"
	"time"
)

type tarFile struct {
	name string
	data []byte
	dir  bool
	mode int64 // 0: 0755 for a directory, 0644 for a file
}

// tarball returns a tar of files, in their order, owned by root, all with
// the time epoch: the same files, the same bytes.
func tarball(files []tarFile, epoch time.Time) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		h := &tar.Header{Name: f.name, ModTime: epoch, Mode: f.mode, Format: tar.FormatPAX}
		switch {
		case f.dir:
			h.Typeflag = tar.TypeDir
			if h.Mode == 0 {
				h.Mode = 0o755
			}
		default:
			h.Typeflag = tar.TypeReg
			h.Size = int64(len(f.data))
			if h.Mode == 0 {
				h.Mode = 0o644
			}
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
