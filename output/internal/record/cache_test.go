package record

import (
	"bytes"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/confined"
)

// parseCache reads back what marshal writes, and refuses what is not a
// whole, well-formed cache.
func TestParseCache(t *testing.T) {
	sc := &StatCache{Key: "k1", Rec: confined.Info{Size: 10, Mtime: 2, Ctime: 3, Ino: 4, Mode: 0o644},
		Files: map[string]confined.Info{
			"robots.txt":       {Size: 1, Mtime: 5, Ctime: 6, Ino: 7, Mode: 0o644},
			"autodisc/a b.txt": {Size: 2, Mtime: 8, Ctime: 9, Ino: 10, Mode: 0o600},
		}}
	data := sc.Marshal()
	got := ParseCache(data)
	if got == nil || got.Key != sc.Key || got.Rec != sc.Rec || !maps.Equal(got.Files, sc.Files) {
		t.Fatalf("parseCache(marshal()) = %+v, want %+v", got, sc)
	}
	if crlf := ParseCache(bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))); crlf == nil || !maps.Equal(crlf.Files, sc.Files) {
		t.Errorf("CRLF lines: %+v, want the same cache", crlf)
	}
	if noEOL := ParseCache(bytes.TrimSuffix(data, []byte("\n"))); noEOL == nil {
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
		if got := ParseCache(d); got != nil {
			t.Errorf("%s: parsed as %+v, want nil", name, got)
		}
	}
}

func BenchmarkParseCache(b *testing.B) {
	sc := &StatCache{Key: strings.Repeat("k", 64), Files: map[string]confined.Info{}}
	for _, p := range []string{"robots.txt", "autodisc/description.txt", "autodisc/feeds.txt", "autodisc/icons.txt", "llms.txt", "x-contact.txt"} {
		sc.Files[p] = confined.Info{Size: 100, Mtime: 1764201600123456789, Ctime: 1764201600123456789, Ino: 123456, Mode: 0o644}
	}
	data := sc.Marshal()
	b.ReportAllocs()
	for b.Loop() {
		if ParseCache(data) == nil {
			b.Fatal("not parsed")
		}
	}
}

// parseCacheReference is parseCache as it was written first, a line at a
// time through strings and strconv: what parseCache must agree with.
func parseCacheReference(data []byte) *StatCache {
	sc := &StatCache{Files: map[string]confined.Info{}}
	end := false
	n := 0
	for b := range bytes.Lines(data) {
		n++
		b = bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte("\r"))
		if len(b) > maxCacheLine {
			return nil
		}
		line := string(b)
		var ok bool
		switch {
		case end:
			ok = false
		case n > 3 && line == "end":
			end, ok = true, true
		case n == 1:
			ok = line == cacheMagic
		case n == 2:
			sc.Key, ok = strings.CutPrefix(line, "key ")
		case n == 3:
			var rest string
			if rest, ok = strings.CutPrefix(line, "record "); ok {
				sc.Rec, ok = parseStat(strings.Fields(rest))
			}
		default:
			var rest string
			if rest, ok = strings.CutPrefix(line, "s "); ok {
				f := strings.SplitN(rest, " ", 6)
				if ok = len(f) == 6 && f[5] != ""; ok {
					sc.Files[f[5]], ok = parseStat(f[:5])
				}
			}
		}
		if !ok {
			return nil
		}
	}
	if sc.Key == "" || !end {
		return nil
	}
	return sc
}

// parseCache agrees with the reading through strings and strconv on
// caches mangled at random: numbers at and past int64's bounds, signs,
// spaces doubled or dropped, bytes changed, lines cut.
func TestParseCacheAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	pieces := []string{" ", "  ", "-", "+", "0", "9", "7", "8", "\n", "\r", "x", "s ", "end\n",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551619", "777777777777777777777", "1000000000000000000000", "99999999999999999999"}
	sc := &StatCache{Key: "k", Rec: confined.Info{Size: 1, Mtime: 2, Ctime: 3, Ino: 4, Mode: 0o644},
		Files: map[string]confined.Info{"a": {Size: 5}, "d/b c": {Size: 6, Mode: 0o600}, "d/e/f": {Size: 7}}}
	base := sc.Marshal()
	for range 50000 {
		data := bytes.Clone(base)
		for range 1 + r.IntN(3) {
			i := r.IntN(len(data) + 1)
			switch r.IntN(3) {
			case 0: // insert
				data = append(data[:i], append([]byte(pieces[r.IntN(len(pieces))]), data[i:]...)...)
			case 1: // delete
				if i < len(data) {
					data = append(data[:i], data[i+1+r.IntN(min(3, len(data)-i)):]...)
				}
			default: // replace a number
				if j := bytes.IndexAny(data[min(i, len(data)):], "0123456789"); j >= 0 {
					k := min(i, len(data)) + j
					data = append(data[:k], append([]byte(pieces[13+r.IntN(len(pieces)-13)]), data[k+1:]...)...)
				}
			}
		}
		got, want := ParseCache(data), parseCacheReference(data)
		if (got == nil) != (want == nil) || got != nil && (got.Key != want.Key || got.Rec != want.Rec || !maps.Equal(got.Files, want.Files)) {
			t.Fatalf("%q:\nparsed %+v\nwant   %+v", data, got, want)
		}
	}
}
