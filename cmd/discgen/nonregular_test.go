package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// TestUserPathsRefuseFIFO: every command that reads a path the user gives
// refuses a FIFO at once instead of waiting for a writer: lint FILE,
// check --robots FILE, lint --key FILE and build -f FILE.
func TestUserPathsRefuseFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "security.txt")
	testenv.Mkfifo(t, fifo)
	plain := filepath.Join(dir, "plain", "security.txt")
	if err := os.MkdirAll(filepath.Dir(plain), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plain, []byte("Contact: mailto:a@example.org\nExpires: 2027-01-01T00:00:00Z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"lint", fifo},
		{"check", "--robots", fifo, "--agent", "x", "/"},
		{"lint", "--key", fifo, plain},
		{"build", "-f", fifo, "-o", filepath.Join(dir, "out")},
		{"validate", "-f", fifo},
	} {
		var stdout, stderr bytes.Buffer
		done := make(chan error, 1)
		go func() { done <- run(args, &stdout, &stderr) }()
		select {
		case err := <-done:
			msg := stderr.String()
			if err != nil {
				msg += err.Error()
			}
			if err == nil || !strings.Contains(msg, "FIFO") {
				t.Errorf("discgen %s: err %v, stderr %q: want the FIFO refused", strings.Join(args, " "), err, stderr.String())
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("discgen %s: still blocked after 5s", strings.Join(args, " "))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("build -f FIFO created the output directory")
	}
}
