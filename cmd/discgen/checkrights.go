package main

import (
	"fmt"
	"io"

	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/publish"
	"github.com/discgen/discgen/rights"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tdmrep"
)

// rightsJSON is the licence (RSL 1.0) and the TDMRep reservation that
// apply at a URL, and where each comes from: robots.txt's License line,
// the Link header --server writes, /.well-known/tdmrep.json's rule and
// the tdm headers. The headers and tdmrep.json are known when checking a
// manifest (-f), not a robots.txt file alone.
type rightsJSON struct {
	License     string `json:"license,omitempty"`
	LicenseLine int    `json:"license_line,omitempty"`
	LinkLicense string `json:"link_header_license,omitempty"`
	Reservation *int   `json:"tdm_reservation,omitempty"`
	Policy      string `json:"tdm_policy,omitempty"`
	Location    string `json:"tdm_location,omitempty"`
	TDMLine     int    `json:"tdm_line,omitempty"`
	// HeaderReservation and HeaderPolicy are what the tdm headers say.
	HeaderReservation *int   `json:"tdm_header_reservation,omitempty"`
	HeaderPolicy      string `json:"tdm_header_policy,omitempty"`

	text []string
}

// rightsAt reads the rights at url: from robots.txt, and with site (a
// manifest's build) from tdmrep.json and the headers too. Nil when
// nothing says a licence or a reservation.
func rightsAt(data []byte, site *publish.SiteDoc, url string) *rightsJSON {
	var tdm []byte
	var headers *serverconf.Rights
	if site != nil {
		if e, ok := site.Tree[tdmrep.Path[1:]]; ok {
			tdm = e.Data
		}
		h := generate.SiteRights(site.Doc.Value)
		headers = &h
	}
	r := rights.ReadRights(data, tdm, headers, robots.PathOf(url))
	out := &rightsJSON{License: r.License, LicenseLine: r.LicenseLine, LinkLicense: r.LinkLicense}
	if r.TDM != nil {
		n := r.TDM.Reservation
		out.Reservation, out.Policy, out.Location, out.TDMLine = &n, r.TDM.Policy, r.TDM.Location, r.TDM.Line
	}
	if r.HeaderTDM != nil {
		n := r.HeaderTDM.Reservation
		out.HeaderReservation, out.HeaderPolicy = &n, r.HeaderTDM.Policy
	}
	if s := r.LicenseText(); s != "" {
		out.text = append(out.text, "license "+s)
	}
	if s := r.TDMText(); s != "" {
		out.text = append(out.text, "tdm "+s)
	}
	if len(out.text) == 0 {
		return nil
	}
	return out
}

func printRights(w io.Writer, r *rightsJSON) {
	if r == nil {
		return
	}
	for _, t := range r.text {
		fmt.Fprintf(w, "  %s\n", t)
	}
}
