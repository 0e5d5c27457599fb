package report

import (
	"github.com/discgen/discgen/rights"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tdmrep"
)

// rowRights sets a row's licence and reservation: what a crawler reads
// at its URL from the built tree (robots.txt, tdmrep.json) and the
// headers --server writes (in.Rights), with where each comes from.
func rowRights(row *Row, in Input) {
	var robotsTxt, tdm []byte
	if e, ok := in.Tree["robots.txt"]; ok {
		robotsTxt = e.Data
	}
	if e, ok := in.Tree[tdmrep.Path[1:]]; ok {
		tdm = e.Data
	}
	var headers *serverconf.Rights
	if in.Rights != nil {
		headers = in.Rights
	}
	r := rights.ReadRights(robotsTxt, tdm, headers, row.Path)
	row.License, row.TDM = r.LicenseText(), r.TDMText()
}
