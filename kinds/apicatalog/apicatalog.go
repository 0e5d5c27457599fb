// Package apicatalog is the kind of /.well-known/api-catalog, RFC 9727
// (June 2025): an RFC 9264 (July 2022) linkset in its JSON form that lists
// a site's APIs, each by its anchor and the links that describe it
// (service-desc, service-doc, service-meta, status; item for a further
// catalog or API). The manifest's well_known.api_catalog gives it;
// relative URLs resolve against site.url and are written in canonical
// form. It is served as application/linkset+json with RFC 9727's profile,
// and its response, and the site's home page, carry the link
// </.well-known/api-catalog>; rel="api-catalog" (RFC 9727 section 2,
// kit.Linked).
//
// [RenderLinkset] writes the linkset in a fixed member order;
// [CheckMediaType] checks the types of its links.
package apicatalog

import (
	"fmt"
	"net/url"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// Entry is one entry of the manifest's well_known.api_catalog, a link
// context object of the linkset: an API, named by its anchor, and the
// links that describe it, by relation.
type Entry struct {
	Anchor      string   `json:"anchor"`
	ServiceDesc []Target `json:"service_desc,omitempty"`
	ServiceDoc  []Target `json:"service_doc,omitempty"`
	ServiceMeta []Target `json:"service_meta,omitempty"`
	Status      []Target `json:"status,omitempty"`
	Item        []Target `json:"item,omitempty"`
}

// Target is one link of an entry, a link target object of the linkset.
type Target struct {
	Href  string `json:"href"`
	Type  string `json:"type,omitempty"`
	Title string `json:"title,omitempty"`
}

// Kind is the api-catalog.
type Kind struct{}

func value(site *manifest.Site) []Entry {
	if l := kit.Value[[]Entry](site, Kind{}.Key()); l != nil {
		return *l
	}
	return nil
}

// NewValue returns a new empty well_known.api_catalog (kit.Owner).
func (Kind) NewValue() any { return new([]Entry) }

// relations pairs each relation of APIRelations with its manifest key
// and the entry's targets.
func relations(e Entry) [len(apiRelations)]struct {
	rel, key string
	targets  []Target
} {
	type r = struct {
		rel, key string
		targets  []Target
	}
	return [...]r{
		{"service-desc", "service_desc", e.ServiceDesc}, {"service-doc", "service_doc", e.ServiceDoc},
		{"service-meta", "service_meta", e.ServiceMeta}, {"status", "status", e.Status}, {"item", "item", e.Item},
	}
}

func (Kind) Name() string                   { return "api-catalog" }
func (Kind) Key() string                    { return "well_known.api_catalog" }
func (Kind) Path() string                   { return ".well-known/api-catalog" }
func (Kind) MediaType() string              { return LinksetType + `; profile="` + APICatalogProfile + `"` }
func (Kind) Given(site *manifest.Site) bool { return len(value(site)) > 0 }

// Link is the Link header value the api-catalog's own response and the
// site's home page carry (RFC 9727 section 2).
func (Kind) Link() string { return `</.well-known/api-catalog>; rel="api-catalog"` }

// Check checks the entries: anchors and hrefs are URLs that stay in the
// site or absolute http(s) URLs (kit.CheckSiteRef); each type is a media
// type; an anchor is given once, and an entry has a link. The relations
// are the manifest's keys, which the schema fixes (an unknown one is an
// unknown key there).
func (Kind) Check(site *manifest.Site, _ kit.Build) []kit.Finding {
	var fs []kit.Finding
	anchors := map[string]int{}
	for i, e := range value(site) {
		ep := fmt.Sprintf("[%d]", i)
		if msg := kit.CheckSiteRef(e.Anchor, "an anchor"); msg != "" {
			fs = append(fs, kit.Finding{Field: ep + ".anchor", Message: msg})
		} else if first, dup := anchors[e.Anchor]; dup {
			fs = append(fs, kit.Finding{Field: ep + ".anchor", Warning: true, First: fmt.Sprintf("[%d].anchor", first),
				Message: fmt.Sprintf("anchor %q is listed twice: give all its links in one entry", e.Anchor)})
		} else {
			anchors[e.Anchor] = i
		}
		n := 0
		for _, r := range relations(e) {
			for j, t := range r.targets {
				n++
				tp := fmt.Sprintf("%s.%s[%d]", ep, r.key, j)
				if msg := kit.CheckSiteRef(t.Href, "a link target"); msg != "" {
					fs = append(fs, kit.Finding{Field: tp + ".href", Message: msg})
				}
				if t.Type != "" {
					if err := CheckMediaType(t.Type); err != nil {
						fs = append(fs, kit.Finding{Field: tp + ".type", Message: err.Error()})
					}
				}
			}
		}
		if n == 0 {
			fs = append(fs, kit.Finding{Field: ep, Warning: true,
				Message: fmt.Sprintf("the entry for %q has no links: give service_desc, service_doc, service_meta, status or item", e.Anchor)})
		}
	}
	return fs
}

// Render writes the linkset, each URL resolved against site.url.
func (Kind) Render(site *manifest.Site, _ kit.Build) ([]byte, bool) {
	entries := value(site)
	if len(entries) == 0 {
		return nil, false
	}
	base, err := url.Parse(site.Site.URL)
	if err != nil {
		return nil, false // validation has refused it
	}
	ctxs := make([]LinkContext, 0, len(entries))
	for _, e := range entries {
		c := LinkContext{Anchor: kit.ResolveSiteRef(base, e.Anchor), Links: map[string][]LinkTarget{}}
		for _, r := range relations(e) {
			for _, x := range r.targets {
				c.Links[r.rel] = append(c.Links[r.rel], LinkTarget{Href: kit.ResolveSiteRef(base, x.Href), Type: x.Type, Title: x.Title})
			}
		}
		ctxs = append(ctxs, c)
	}
	return RenderLinkset(ctxs), true
}
