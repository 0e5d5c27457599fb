//go:build unix

package confined

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// A FIFO swapped in where the caller's Lstat found a regular file is
// neither waited on nor read: Root.ReadFile returns at once with an error.
func TestRootReadFileRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	testenv.Mkfifo(t, filepath.Join(dir, "robots.txt"))
	r, err := OpenRoot(dir, "", false, nil, Pin)
	if err != nil || r == nil {
		t.Fatal(err)
	}
	defer r.Close()
	done := make(chan error, 1)
	go func() {
		_, read, err := r.ReadFile("robots.txt", 10, 100)
		if read {
			err = errors.New("read a FIFO")
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("ReadFile of a FIFO: %v; want a refusal", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ReadFile waited on a FIFO")
	}
}
