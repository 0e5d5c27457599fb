package lint

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Read gives each file its kind, lists what it cannot read and stops at
// the first refusal of room, asked before each read and before a
// robots.txt is parsed.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	robotsFile, sec := filepath.Join(dir, "rules"), filepath.Join(dir, "sec")
	if err := os.WriteFile(robotsFile, []byte("User-agent: *\nDisallow: /x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sec, []byte("Contact: mailto:a@example.org\nExpires: 2030-01-01T00:00:00Z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var asked []string
	srcs, list, err := Read([]string{robotsFile, sec, filepath.Join(dir, "missing")}, "", func(name string, need int64) error {
		asked = append(asked, filepath.Base(name))
		return nil
	})
	if err != nil || len(srcs) != 2 || srcs[0].Kind != Robots || srcs[1].Kind != SecurityTxt {
		t.Fatalf("%+v %v", srcs, err)
	}
	if len(list) != 1 || !strings.Contains(list[0].Message, "cannot read") {
		t.Errorf("diagnostics %v, want the missing file's", list)
	}
	if strings.Join(asked, " ") != "rules rules sec" {
		t.Errorf("room asked for %v, want rules (read, parse) and sec (read)", asked)
	}
	full := errors.New("no room")
	if _, _, err := Read([]string{robotsFile}, "", func(string, int64) error { return full }); err != full {
		t.Errorf("a refusal: %v", err)
	}
}
