package output

import (
	"bytes"
	"maps"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/confined"
)

// parseCache reads back what marshal writes, and refuses what is not a
// whole, well-formed cache.
func TestParseCache(t *testing.T) {
	sc := &statCache{key: "k1", rec: confined.Info{Size: 10, Mtime: 2, Ctime: 3, Ino: 4, Mode: 0o644},
		files: map[string]confined.Info{
			"robots.txt":       {Size: 1, Mtime: 5, Ctime: 6, Ino: 7, Mode: 0o644},
			"autodisc/a b.txt": {Size: 2, Mtime: 8, Ctime: 9, Ino: 10, Mode: 0o600},
		}}
	data := sc.marshal()
	got := parseCache(data)
	if got == nil || got.key != sc.key || got.rec != sc.rec || !maps.Equal(got.files, sc.files) {
		t.Fatalf("parseCache(marshal()) = %+v, want %+v", got, sc)
	}
	if crlf := parseCache(bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))); crlf == nil || !maps.Equal(crlf.files, sc.files) {
		t.Errorf("CRLF lines: %+v, want the same cache", crlf)
	}
	if noEOL := parseCache(bytes.TrimSuffix(data, []byte("\n"))); noEOL == nil {
		t.Error("a last line without its newline: refused")
	}
	long := bytes.Replace(data, []byte("a b.txt"), []byte(strings.Repeat("x", 64*1024)), 1)
	for name, d := range map[string][]byte{
		"empty":        nil,
		"torn":         data[:len(data)-5],
		"no end":       bytes.TrimSuffix(data, []byte("end\n")),
		"after end":    append(bytes.Clone(data), "s 1 2 3 4 644 x\n"...),
		"other magic":  bytes.Replace(data, []byte(cacheMagic), []byte("discgen stat cache 1"), 1),
		"bad stat":     bytes.Replace(data, []byte("s 1 "), []byte("s one "), 1),
		"long line":    long,
		"missing name": bytes.Replace(data, []byte(" robots.txt\n"), []byte(" \n"), 1),
	} {
		if got := parseCache(d); got != nil {
			t.Errorf("%s: parsed as %+v, want nil", name, got)
		}
	}
}

func BenchmarkParseCache(b *testing.B) {
	sc := &statCache{key: strings.Repeat("k", 64), files: map[string]confined.Info{}}
	for _, p := range []string{"robots.txt", "autodisc/description.txt", "autodisc/feeds.txt", "autodisc/icons.txt", "llms.txt", "x-contact.txt"} {
		sc.files[p] = confined.Info{Size: 100, Mtime: 1764201600123456789, Ctime: 1764201600123456789, Ino: 123456, Mode: 0o644}
	}
	data := sc.marshal()
	b.ReportAllocs()
	for b.Loop() {
		if parseCache(data) == nil {
			b.Fatal("not parsed")
		}
	}
}
