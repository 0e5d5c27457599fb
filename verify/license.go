package verify

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/discgen/discgen/serverconf"
)

// checkRightsHeaders compares the licence and reservation headers of a
// response with what --server configuration sends for its path
// (serverconf.Rights.At): the Link to the RSL document, and the
// tdm-reservation and tdm-policy of tdmrep.json's first matching rule
// (W3C TDMRep). A wrong value is a problem (a reader would take the header
// over tdmrep.json); a missing one only a note, since a site may publish
// them in robots.txt and tdmrep.json alone.
func checkRightsHeaders(r *Result, rights *serverconf.Rights, path string, h http.Header) {
	if rights == nil {
		return
	}
	link, tdm, ok := rights.At(path)
	if link != "" {
		links := h.Values("Link")
		joined := strings.Join(links, ", ")
		switch {
		case strings.Contains(joined, link):
		case strings.Contains(joined, `rel="license"`):
			r.fail("Link %q, want the licence %q", joined, link)
		default:
			r.Notes = append(r.Notes, "no licence Link header (want "+link+"): the --server configuration is not in place")
		}
	}
	res, pol := h.Values("tdm-reservation"), h.Values("tdm-policy")
	if !ok {
		if len(res) > 0 || len(pol) > 0 {
			r.fail("tdm-reservation %q, tdm-policy %q, want none: no tdmrep.json rule matches here", strings.Join(res, ", "), strings.Join(pol, ", "))
		}
		return
	}
	want := strconv.Itoa(tdm.Reservation)
	switch {
	case len(res) == 0 && len(pol) == 0:
		r.Notes = append(r.Notes, "no tdm-reservation header (want "+want+"): the --server configuration is not in place")
		return
	case len(res) != 1 || res[0] != want:
		r.fail("tdm-reservation %q, want %q as tdmrep.json says for %s", strings.Join(res, ", "), want, tdm.Location)
	}
	switch {
	case tdm.Policy == "" && len(pol) > 0:
		r.fail("tdm-policy %q, want none as tdmrep.json says for %s", strings.Join(pol, ", "), tdm.Location)
	case tdm.Policy != "" && (len(pol) != 1 || pol[0] != tdm.Policy):
		r.fail("tdm-policy %q, want %q as tdmrep.json says for %s", strings.Join(pol, ", "), tdm.Policy, tdm.Location)
	}
}
