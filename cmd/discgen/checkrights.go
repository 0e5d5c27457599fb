package main

import (
	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/publish"
	"github.com/discgen/discgen/rights"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tdmrep"
)

// rightsAt reads the rights at url: from robots.txt, and with site (a
// manifest's build) from tdmrep.json and the headers too.
func rightsAt(data []byte, site *publish.SiteDoc, url string) rights.RightsReading {
	var tdm []byte
	var headers *serverconf.Rights
	if site != nil {
		if e, ok := site.Tree[tdmrep.Path[1:]]; ok {
			tdm = e.Data
		}
		h := generate.SiteRights(site.Doc.Value)
		headers = &h
	}
	return rights.ReadRights(data, tdm, headers, robots.PathOf(url))
}
