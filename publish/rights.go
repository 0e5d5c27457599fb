package publish

import (
	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/rights"
	"github.com/discgen/discgen/tdmrep"
)

// Rights returns the reader of the licence and the reservation a crawler
// finds at a URL of the site: in the robots.txt and tdmrep.json it builds
// and in the headers --server writes (discgen check -f).
func (s *SiteDoc) Rights() *rights.Reader {
	var robots, tdm []byte
	if e, ok := s.Tree["robots.txt"]; ok {
		robots = e.Data
	}
	if e, ok := s.Tree[tdmrep.Path[1:]]; ok {
		tdm = e.Data
	}
	headers := generate.SiteRights(s.Model)
	return rights.NewReader(robots, tdm, &headers)
}
