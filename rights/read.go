// Package rights reads, at one URL, the licence (RSL 1.0) and the text-
// and-data-mining reservation (W3C TDMRep, CG final report 2024-05-10) a
// crawler finds in a built site: robots.txt's License line, the Link
// header, /.well-known/tdmrep.json and the tdm headers. check, report,
// expect and the differential tests read through it, so that each says
// what a crawler reads.
package rights

import (
	"fmt"
	"strings"

	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tdmrep"
)

// RightsReading is what a crawler reads of the licence and the TDMRep
// reservation at one URL, from each place that says them: robots.txt's
// License line (RSL 1.0), the Link header, /.well-known/tdmrep.json and
// the tdm headers (W3C TDMRep final report 2024-05-10). The licence is
// global; the reservation is the first tdmrep.json rule whose location
// matches, which the headers repeat.
type RightsReading struct {
	License     string // the first global License line's URL; "" none
	LicenseLine int
	// LinkLicense is the licence the Link header names; "" none.
	LinkLicense string
	// TDM is the tdmrep.json rule that applies; nil where none does (the
	// reservation is then unset).
	TDM *tdmrep.Parsed
	// HeaderTDM is the tdm headers' values; nil where none is sent.
	HeaderTDM *tdmrep.Rule
	// Headers is set when the headers were read (a build with the
	// manifest), not only the files.
	Headers bool
}

// Reader reads the licence and reservation of one built site at any URL:
// the files are parsed once.
type Reader struct {
	license     string
	licenseLine int
	tdm         []tdmrep.Parsed
	headers     *serverconf.Rights
}

// NewReader reads the files (robots.txt, tdmrep.json: nil when absent)
// and, with headers, the headers --server writes.
func NewReader(robotsTxt, tdmJSON []byte, headers *serverconf.Rights) *Reader {
	r := &Reader{headers: headers}
	for _, l := range robots.Licenses(robotsTxt) {
		if !l.InGroup {
			r.license, r.licenseLine = l.Value, l.Num
			break
		}
	}
	if tdmJSON != nil {
		r.tdm, _ = tdmrep.Parse(tdmJSON)
	}
	return r
}

// At reads the licence and reservation at the URL path.
func (rd *Reader) At(path string) RightsReading {
	r := RightsReading{License: rd.license, LicenseLine: rd.licenseLine}
	p := robots.Canonical(robots.PathOf(path))
	for i := range rd.tdm {
		if robots.PatternMatches(p, robots.Canonical(rd.tdm[i].Location)) {
			r.TDM = &rd.tdm[i]
			break
		}
	}
	if rd.headers != nil {
		r.Headers = true
		r.LinkLicense = rd.headers.License
		if _, rule, ok := rd.headers.At(path); ok {
			r.HeaderTDM = &rule
		}
	}
	return r
}

// ReadRights reads the licence and reservation at the URL path from the
// files (robots.txt, tdmrep.json: nil when absent) and, with headers, the
// headers --server writes.
func ReadRights(robotsTxt, tdmJSON []byte, headers *serverconf.Rights, path string) RightsReading {
	return NewReader(robotsTxt, tdmJSON, headers).At(path)
}

// EffectiveLicense is the licence a crawler reads: the License line's,
// else the Link header's.
func (r RightsReading) EffectiveLicense() string {
	if r.License != "" {
		return r.License
	}
	return r.LinkLicense
}

// LicenseText says the licence and where it comes from; "" for none.
func (r RightsReading) LicenseText() string {
	var from []string
	if r.License != "" {
		from = append(from, fmt.Sprintf("robots.txt line %d", r.LicenseLine))
	}
	if r.LinkLicense != "" {
		if r.License != "" && r.LinkLicense != r.License {
			from = append(from, "the Link header names "+r.LinkLicense)
		} else {
			from = append(from, "the Link header")
		}
	}
	if len(from) == 0 {
		return ""
	}
	return fmt.Sprintf("%s (%s)", r.EffectiveLicense(), strings.Join(from, "; "))
}

// TDMText says the reservation and where it comes from; "" where nothing
// says one.
func (r RightsReading) TDMText() string {
	var b strings.Builder
	switch {
	case r.TDM != nil:
		b.WriteString(ReservationWord(r.TDM.Rule))
		fmt.Fprintf(&b, " (tdmrep.json line %d: location %s", r.TDM.Line, r.TDM.Location)
		switch {
		case !r.Headers:
		case r.HeaderTDM != nil && *r.HeaderTDM == r.TDM.Rule:
			b.WriteString("; the tdm headers say the same")
		case r.HeaderTDM != nil:
			b.WriteString("; the tdm headers say " + ReservationWord(*r.HeaderTDM))
		default:
			b.WriteString("; no tdm header")
		}
		b.WriteString(")")
	case r.HeaderTDM != nil:
		fmt.Fprintf(&b, "%s (the tdm headers; no tdmrep.json rule matches)", ReservationWord(*r.HeaderTDM))
	default:
		return ""
	}
	return b.String()
}

// ReservationWord says a rule's reservation and policy in words.
func ReservationWord(t tdmrep.Rule) string {
	s := "reserved (tdm-reservation 1)"
	if t.Reservation == 0 {
		s = "not reserved (tdm-reservation 0)"
	}
	if t.Policy != "" {
		s += ", policy " + t.Policy
	}
	return s
}
