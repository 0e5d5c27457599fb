package rights

// JSON is the licence (RSL 1.0) and the TDMRep reservation that apply at
// a URL, and where each comes from, as discgen check --format json writes
// them: robots.txt's License line, the Link header --server writes,
// /.well-known/tdmrep.json's rule and the tdm headers (the last two known
// only from a manifest's build).
type JSON struct {
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
}

// JSON is the reading's JSON form, nil where nothing says a licence or a
// reservation.
func (r RightsReading) JSON() *JSON {
	if r.LicenseText() == "" && r.TDMText() == "" {
		return nil
	}
	out := &JSON{License: r.License, LicenseLine: r.LicenseLine, LinkLicense: r.LinkLicense}
	if r.TDM != nil {
		n := r.TDM.Reservation
		out.Reservation, out.Policy, out.Location, out.TDMLine = &n, r.TDM.Policy, r.TDM.Location, r.TDM.Line
	}
	if r.HeaderTDM != nil {
		n := r.HeaderTDM.Reservation
		out.HeaderReservation, out.HeaderPolicy = &n, r.HeaderTDM.Policy
	}
	return out
}
