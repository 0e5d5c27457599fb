package generate

import (
	"errors"
	"fmt"
	"hash/fnv"
	"net/url"
	"slices"
	"strings"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/serverconf"
)

// SiteVerified returns the --server identity checks of a validated site
// manifest's groups with verified: true (design section 14), or nil when
// no group has it. Each crawler's prefixes come from the file
// verified_ranges names for it, read through the manifest's directory dir
// (a bad file is an error at its own line and column), or else from the
// shipped range catalogue. Crawlers are in order of first mention.
func SiteVerified(s *model.Site, dir string) (*serverconf.Verified, diag.List) {
	doc := s.Doc()
	var errs diag.List
	m := doc.Value
	local := map[string]string{}
	for name := range m.VerifiedRanges {
		local[strings.ToLower(name)] = name
	}
	var v serverconf.Verified
	seen := map[string]bool{}
	md := &manifestDir{dir: dir}
	defer md.close()
	read := map[string]*crawlers.RangeList{} // by file, read once
	for i, g := range m.Agents {
		if !g.Verified {
			continue
		}
		vp := manifest.Key(manifest.Index("agents", i), "verified")
		for _, n := range model.VerifiedNames(g) {
			k := strings.ToLower(n)
			if seen[k] {
				continue
			}
			seen[k] = true
			c := serverconf.VerifiedCrawler{Name: n}
			if name, ok := local[k]; ok {
				file := m.VerifiedRanges[name]
				rl, ok := read[file]
				if !ok {
					rl = readRanges(doc, md, manifest.Key("verified_ranges", name), file, &errs)
					read[file] = rl
				}
				if rl == nil {
					continue
				}
				c.Source, c.Prefixes = "verified_ranges: "+file, rl.Prefixes
			} else {
				key, ps, ok := crawlers.DefaultRanges().For(n)
				if !ok {
					errs.Errorf(doc.Pos.KeyOf(vp), vp, "%s has no published address ranges: give a file in verified_ranges", n)
					continue
				}
				s := crawlers.DefaultRanges().Lists[key]
				c.Source, c.Prefixes = fmt.Sprintf("%s, read %s", s.URL, s.Read), ps
			}
			v.Crawlers = append(v.Crawlers, c)
		}
	}
	if len(v.Crawlers) == 0 {
		return nil, errs
	}
	v.ID = siteID(m.Site.URL)
	if cdn := m.VerifiedCDN; cdn != nil {
		ps, ok := crawlers.DefaultRanges().CDN(cdn.CDN)
		if !ok {
			errs.Errorf(doc.Pos.Of("verified_cdn.cdn"), "verified_cdn.cdn", "discgen's range catalogue has no ranges for the CDN %q", cdn.CDN)
		} else {
			v.CDN = &serverconf.VerifiedCDN{Name: cdn.CDN, Header: cdn.Header, Prefixes: ps}
		}
	}
	return &v, errs
}

// readRanges reads and parses one verified_ranges file; nil after an
// error, which is put at the file's line and column when it is in the
// file, else at the manifest key p.
func readRanges(doc *manifest.Doc[manifest.Site], md *manifestDir, p, file string, errs *diag.List) *crawlers.RangeList {
	data, err := md.read(file, crawlers.MaxRangesSize)
	if err != nil {
		errs.Errorf(doc.Pos.Of(p), p, "cannot read %q: %v", file, err)
		return nil
	}
	rl, err := crawlers.ParseRanges(data)
	var re *crawlers.RangeError
	if errors.As(err, &re) {
		errs.Errorf(diag.Pos{File: sourcePath(doc.Pos.File, file), Line: re.Line, Col: re.Col}, p, "%s", re.Msg)
		return nil
	}
	if err != nil {
		errs.Errorf(doc.Pos.Of(p), p, "%q: %v", file, err)
		return nil
	}
	return rl
}

// siteID is the site's host (and port) with every character but ASCII
// letters and digits written as '_', then '_' and the FNV-1a hash of the
// host: a name for nginx variables that differs between the sites of one
// server (a-b.org and a.b.org included).
func siteID(site string) string {
	u, err := url.Parse(site)
	h := "site"
	if err == nil && u.Host != "" {
		h = strings.ToLower(u.Host)
	}
	b := []byte(h)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			b[i] = '_'
		}
	}
	f := fnv.New32a()
	f.Write([]byte(h))
	return fmt.Sprintf("%s_%08x", b, f.Sum32())
}

// VerifiedWarnings warns, at each verified key, that a kind of kinds
// cannot check a crawler's address: _headers (Netlify, Cloudflare Pages)
// matches neither User-Agent nor address.
func VerifiedWarnings(s *model.Site, kinds []serverconf.Kind) diag.List {
	doc := s.Doc()
	var l diag.List
	if !slices.Contains(kinds, serverconf.Headers) {
		return l
	}
	for i, g := range doc.Value.Agents {
		if g.Verified {
			p := manifest.Key(manifest.Index("agents", i), "verified")
			l.Warnf(doc.Pos.KeyOf(p), p, "_headers (Netlify, Cloudflare Pages) cannot check a crawler's address: verified is not applied there; use the CDN's own bot verification, or --server nginx, htaccess or caddy")
		}
	}
	return l
}
