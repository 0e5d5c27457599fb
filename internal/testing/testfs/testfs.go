// Package testfs writes and reads the files of a test's fixture, failing
// the test on any error. For _test.go files only.
package testfs

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes data to the file name, making its directories.
func Write(t testing.TB, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Read returns what the file name holds.
func Read(t testing.TB, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
