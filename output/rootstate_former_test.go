package output

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/discgen/discgen/output/internal/journal"
	"github.com/discgen/discgen/output/internal/record"
)

// A root whose state an earlier build kept in the former layout
// (roots/ab/<hash>/records and journal/) keeps what it owned: the build
// that makes its own state directory moves the record in, and the
// journal of its owner's killed build, which is then recovered, and
// removes the former directories. Without them, both files would be
// refused as not discgen's.
func TestFormerRootStateMoved(t *testing.T) {
	state, name, root, old, x := formerRoot(t)
	for _, d := range []string{"records", "journal"} {
		if err := os.MkdirAll(filepath.Join(old, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	rec := fmt.Sprintf("discgen output record 2\nname %s\nstate complete\nf %x a.txt\n", name, sha256.Sum256([]byte("old a\n")))
	if err := os.WriteFile(filepath.Join(old, "records", x+".rec"), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	in := fmt.Sprintf("discgen output record 2\nname %s\nstate incomplete\nf %x b.txt\n", name, sha256.Sum256([]byte("old b\n")))
	jnl := fmt.Sprintf("%s\nrecord %d\n%s", journal.Magic, len(in), in)
	if err := os.WriteFile(filepath.Join(old, "journal", "0123456789abcdef.jnl"), []byte(jnl), 0o600); err != nil {
		t.Fatal(err)
	}

	own := RootStateDir(state, name)
	made, err := PrepareRootState(own, name, nil)
	if err != nil || made {
		t.Fatalf("PrepareRootState = %v, %v; want a directory holding a journal to recover", made, err)
	}
	if n, _, err := Recover(own); err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v; want the former journal's intent", n, err)
	}
	opt := Options{StateDir: own, FormerStateDir: state, Record: name, NoSync: true}
	if _, _, err := Write(root, files("a.txt", "new a\n", "b.txt", "new b\n"), opt); err != nil {
		t.Fatalf("the build after the move: %v", err)
	}
	for f, want := range map[string]string{"a.txt": "new a\n", "b.txt": "new b\n"} {
		if data, err := os.ReadFile(filepath.Join(root, f)); err != nil || string(data) != want {
			t.Errorf("%s = %q, %v; want %q", f, data, err, want)
		}
	}
	if _, err := os.Lstat(old); !os.IsNotExist(err) {
		t.Errorf("the former directory is still there: %v", err)
	}
	if r, err := readRecordNamed(own, name); err != nil || !r.Complete {
		t.Errorf("the record in the root's own directory: %+v, %v", r, err)
	}
}

// A journal of root's batches left by a build from before the layout
// changed, naming a root whose state is in the former layout, is merged
// into the root's record once moved into its own state directory, not
// into the build's state directory, which the root no longer reads.
func TestFormerRootStateJournalOfRootsBatch(t *testing.T) {
	state, name, root, old, x := formerRoot(t)
	for _, d := range []string{filepath.Join(old, "records"), filepath.Join(old, "journal"), filepath.Join(state, "journal")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	rec := fmt.Sprintf("discgen output record 2\nname %s\nstate complete\nf %x a.txt\n", name, sha256.Sum256([]byte("old a\n")))
	if err := os.WriteFile(filepath.Join(old, "records", x+".rec"), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	in := fmt.Sprintf("discgen output record 2\nname %s\nstate incomplete\nf %x b.txt\n", name, sha256.Sum256([]byte("old b\n")))
	jnl := fmt.Sprintf("%s\nrecord %d\n%s", journal.Magic, len(in), in)
	if err := os.WriteFile(filepath.Join(state, "journal", "0123456789abcdef.jnl"), []byte(jnl), 0o600); err != nil {
		t.Fatal(err)
	}

	if n, _, err := Recover(state); err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v; want root's journal's intent merged", n, err)
	}
	own := RootStateDir(state, name)
	if _, err := PrepareRootState(own, name, nil); err != nil {
		t.Fatal(err)
	}
	opt := Options{StateDir: own, FormerStateDir: state, JournalDir: state, Record: name, NoSync: true}
	if _, _, err := Write(root, files("a.txt", "new a\n", "b.txt", "new b\n"), opt); err != nil {
		t.Fatalf("the build after the recovery: %v", err)
	}
	for f, want := range map[string]string{"a.txt": "new a\n", "b.txt": "new b\n"} {
		if data, err := os.ReadFile(filepath.Join(root, f)); err != nil || string(data) != want {
			t.Errorf("%s = %q, %v; want %q", f, data, err, want)
		}
	}
}

// formerRoot writes a tenant's root, users/alice/public_html, holding two
// files an earlier build wrote, below a new directory; state is the
// build's state directory there, old the root's state directory in the
// former layout (roots/ab/<hash>, not made), and x the hash of its
// record's name.
func formerRoot(t *testing.T) (state, name, root, old, x string) {
	t.Helper()
	base := t.TempDir()
	state, name = filepath.Join(base, "state"), "users/alice/public_html"
	root = filepath.Join(base, name)
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for f, data := range map[string]string{"a.txt": "old a\n", "b.txt": "old b\n"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	x = record.NameHash(name)
	return state, name, root, filepath.Join(state, "roots", x[:2], x), x
}
