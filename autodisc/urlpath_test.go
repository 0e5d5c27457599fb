package autodisc

import "testing"

func TestURLPath(t *testing.T) {
	for arg, want := range map[string]string{
		"/~alice/x.html": "/~alice/x.html", "https://example.org": "/", "https://example.org/a%20b?q=1": "/a%20b", "a/b": "",
	} {
		got, err := URLPath(arg)
		if got != want || (err != nil) != (want == "") {
			t.Errorf("URLPath(%q) = %q, %v; want %q", arg, got, err, want)
		}
	}
}
