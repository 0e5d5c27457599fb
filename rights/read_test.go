package rights

import (
	"strings"
	"testing"

	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tdmrep"
)

// The tdm headers are read as the servers send them, not copied from
// tdmrep.json: a location with an escaped reserved character is not
// written in the configuration (servers would decode it), and a URL the
// servers do not read as TDMRep readers do gets no tdm header. The text
// says "the tdm headers say the same" only where they do.
func TestHeadersReadAsServersSendThem(t *testing.T) {
	rules := []tdmrep.Rule{{Location: "/a%2Fb/", Reservation: 0}, {Location: "/*.pdf$", Reservation: 0}, {Location: "/", Reservation: 1}}
	tdm := tdmrep.Marshal(rules)
	headers := &serverconf.Rights{TDM: rules}
	for path, want := range map[string]string{
		"/a/b/x.html":     "reserved (tdm-reservation 1) (tdmrep.json line 10: location /; the tdm headers say the same)",
		"/a%2Fb/x.html":   "not reserved (tdm-reservation 0) (tdmrep.json line 2: location /a%2Fb/; no tdm header)",
		"/open/a.pdf":     "not reserved (tdm-reservation 0) (tdmrep.json line 6: location /*.pdf$; the tdm headers say the same)",
		"/open/a.pdf?x=1": "reserved (tdm-reservation 1) (tdmrep.json line 10: location /; no tdm header)",
		"/open//a.html":   "reserved (tdm-reservation 1) (tdmrep.json line 10: location /; no tdm header)",
	} {
		got := ReadRights(nil, tdm, headers, path).TDMText()
		if got != want {
			t.Errorf("%s: %s\nwant %s", path, got, want)
		}
		if strings.Contains(got, "say the same") != strings.Contains(want, "say the same") {
			t.Errorf("%s: claims agreement wrongly", path)
		}
	}
}
