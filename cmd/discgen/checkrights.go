package main

import (
	"fmt"
	"io"

	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/publish"
	"github.com/discgen/discgen/rights"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tdmrep"
)

// rightsReader reads the licence and reservation of robots.txt and tdm (a
// hand-written tdmrep.json, nil for none), or with site (a manifest's
// build) of its robots.txt, tdmrep.json and headers.
func rightsReader(data, tdm []byte, site *publish.SiteDoc) *rights.Reader {
	var headers *serverconf.Rights
	if site != nil {
		tdm = nil
		if e, ok := site.Tree[tdmrep.Path[1:]]; ok {
			tdm = e.Data
		}
		h := generate.SiteRights(site.Model)
		headers = &h
	}
	return rights.NewReader(data, tdm, headers)
}

// tdmrepBytes reads check's --tdmrep file ("" none): nil when none. What
// a reader of the file drops or doubts (tdmrep.Parse's problems) is
// warned at its line and column; the rest is read.
func tdmrepBytes(file string, stderr io.Writer) ([]byte, error) {
	if file == "" {
		return nil, nil
	}
	data, err := limited.ReadFile(file, maxLintFile)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", file, err)
	}
	_, problems := tdmrep.Parse(data)
	for _, p := range problems {
		fmt.Fprintf(stderr, "discgen: warning: %s:%d:%d: %s\n", file, p.Line, p.Col, p.Message)
	}
	return data, nil
}
