//go:build unix

package publish

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"

	"github.com/discgen/discgen/output"
)

// tenantStateFile is the OS path of the file of the tenant whose record
// is named record (its directory relative to the state directory's
// parent) in its own state directory, ext ".rec" or ".stat".
func tenantStateFile(stateDir, record, ext string) string {
	return filepath.Join(output.RootStateDir(stateDir, record), "record"+ext)
}

// padState rewrites file with head, then lines made by line(k) up to size
// bytes, then tail.
func padState(t *testing.T, file, head string, size int, line func(k int) string, tail string) {
	t.Helper()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	n, _ := w.WriteString(head)
	for k := 0; ; k++ {
		l := line(k)
		if n+len(l)+len(tail) > size {
			break
		}
		m, _ := w.WriteString(l)
		n += m
	}
	w.WriteString(tail)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// heapAllocs is what the program has allocated on the heap so far.
func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestPaddedRecords: colluding tenants pad the records and stat caches in
// their own state directories (which they own, to save as themselves) to
// 16 MiB each, with claims of files that do not exist. Each such tenant
// is refused alone, its record unread past what its limits let it hold;
// the ordinary tenants are built; and the build allocates a small part
// of what the padding holds, so that it stays inside its memory budget
// however many tenants pad. Before, 9 padded tenants took a build of 150
// others to 589 MB and 18 s, and to a runtime crash under 1 GiB of
// address space.
func TestPaddedRecords(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"site.yaml": isolationSite}
	var ordinary, padded []string
	for _, u := range []string{"alice", "bob", "carol", "dave"} {
		ordinary = append(ordinary, "users/"+u+"/public_html")
	}
	for i := range 9 {
		padded = append(padded, fmt.Sprintf("users/pad%d/public_html", i))
	}
	const lines, cached = "users/lines/public_html", "users/cached/public_html"
	for _, rel := range append(append([]string{lines, cached}, ordinary...), padded...) {
		files[rel+"/autodisc.yaml"] = tenantYAML("/~" + filepath.Base(filepath.Dir(rel)) + "/")
	}
	writeFiles(t, dir, files)
	if o := publishAt(t, dir, nil); len(o.with(Built)) != len(files)-1 {
		t.Fatalf("first build: built %v", o.with(Built))
	}
	state := filepath.Join(dir, ".state")
	// A padded record keeps what the tenant's record holds, and
	// claims more.
	head := func(rel string) string {
		data, err := os.ReadFile(tenantStateFile(state, rel, ".rec"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	claim := func(k int) string {
		h := sha256.Sum256([]byte(strconv.Itoa(k)))
		return fmt.Sprintf("f %x autodisc/p%06d\n", h, k)
	}
	for _, rel := range padded {
		padState(t, tenantStateFile(state, rel, ".rec"), head(rel), 16<<20, claim, "")
	}
	// Under the size that bounds it, with more lines than its limits
	// let it hold: refused at the line past them.
	padState(t, tenantStateFile(state, lines, ".rec"), head(lines), 1<<20, claim, "")
	// A stat cache with its key and record lines kept.
	sc := tenantStateFile(state, cached, ".stat")
	data, err := os.ReadFile(sc)
	if err != nil {
		t.Fatal(err)
	}
	keep := bytes.SplitAfterN(data, []byte("\n"), 4)
	padState(t, sc, string(bytes.Join(keep[:3], nil)), 16<<20, func(k int) string {
		return fmt.Sprintf("s 1 2 3 %d 644 autodisc/p%06d\n", k, k)
	}, "end\n")
	// Every tenant but cached saves a new description.
	for _, rel := range append(append([]string{lines}, ordinary...), padded...) {
		files[rel+"/autodisc.yaml"] = strings.Replace(files[rel+"/autodisc.yaml"], "home of", "new home of", 1)
	}
	delete(files, cached+"/autodisc.yaml")
	writeFiles(t, dir, files)

	runtime.GC()
	before := heapAllocs()
	o := publishAt(t, dir, nil)
	allocs := heapAllocs() - before
	refused := map[string]string{}
	for _, rel := range padded {
		refused[rel] = "bytes this root's record may hold; it is not read"
	}
	// A tenant's record holds at most 8 lines a file it may write, and
	// 64 more (recordLines): past them, on the line after.
	refused[lines] = fmt.Sprintf(".rec:%d: ownership record names more than %d paths", 3+8*DefaultTenantFiles+64+1, 8*DefaultTenantFiles+64)
	o.wantOnly(t, ordinary, refused)
	if st := o.status[cached]; st != Unchanged {
		t.Errorf("%s: %s, want unchanged", cached, st)
	}
	t.Logf("the build allocated %d MiB", allocs>>20)
	if allocs > 48<<20 {
		t.Errorf("the build allocated %d MiB, beside 10 state files of 16 MiB and one of 1 MiB; want no more than 48 MiB", allocs>>20)
	}
}
