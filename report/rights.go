package report

import (
	"github.com/discgen/discgen/rights"
	"github.com/discgen/discgen/tdmrep"
)

// rightsReader reads the licence and reservation of the built tree
// (robots.txt, tdmrep.json) and the headers --server writes (in.Rights).
func rightsReader(in Input) *rights.Reader {
	var robotsTxt, tdm []byte
	if e, ok := in.Tree["robots.txt"]; ok {
		robotsTxt = e.Data
	}
	if e, ok := in.Tree[tdmrep.Path[1:]]; ok {
		tdm = e.Data
	}
	return rights.NewReader(robotsTxt, tdm, in.Rights)
}

// rowRights sets a row's licence and reservation: what a crawler reads at
// its URL, with where they come from.
func rowRights(row *Row, rd *rights.Reader) {
	r := rd.At(row.Path)
	row.License, row.TDM = r.LicenseText(), r.TDMText()
}
