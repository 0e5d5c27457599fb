package verify

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/discgen/discgen/aipref"

	"github.com/discgen/discgen/robots"
)

// checkUsageHeader compares the Content-Usage header of a response with
// the value --server configuration sends for its path: the site's
// preferences under the longest matching path-scoped ones
// (draft-ietf-aipref-attach-05 section 3). A wrong value is a problem; a
// missing one only a note, since a site may publish its preferences in
// robots.txt alone (without --server configuration).
func checkUsageHeader(r *Result, u *robots.Usage, path string, h http.Header) {
	if u == nil {
		return
	}
	p, _ := u.Effective(path)
	want := aipref.UsageValue(p)
	got := h.Values("Content-Usage")
	switch {
	case want == "" && len(got) == 0:
	case want == "":
		r.fail("Content-Usage %q, want none: the manifest states no preference the header can say here", strings.Join(got, ", "))
	case len(got) == 0:
		r.Notes = append(r.Notes, "no Content-Usage header (want "+want+"): the --server configuration is not in place")
	case (len(got) > 1 || got[0] != want) && sameUsage(strings.Join(got, ", "), want):
		r.Notes = append(r.Notes, "Content-Usage "+strconv.Quote(strings.Join(got, ", "))+" is written otherwise than "+strconv.Quote(want)+": the same preferences")
	case len(got) > 1 || got[0] != want:
		r.fail("Content-Usage %q, want %q", strings.Join(got, ", "), want)
	}
}
