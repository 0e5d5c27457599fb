package verify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/sitemap"
)

// Sitemaps fetches and checks each sitemap the built robots.txt (of the
// root "/") names, as a crawler reads it (sitemap.Walk): status 200, a
// sitemap or an index that lists no index, within the sitemaps.org
// limits, each problem at its line and column; an index's sitemaps are
// fetched too (at most sitemap.MaxChildren). site is the site's URL:
// a sitemap on another host is a note and is not fetched (a site must
// not make the machine that verifies it fetch other hosts), and one named
// twice is a note. A sitemap on the site's host is fetched at the same
// path from opt.Origin, so a staging origin is checked as the site, with
// the redirect rules of Run.
func Sitemaps(ctx context.Context, opt Options, site string) ([]Result, error) {
	origin, err := url.Parse(strings.TrimSuffix(opt.Origin, "/"))
	if err != nil || (origin.Scheme != "http" && origin.Scheme != "https") || origin.Host == "" {
		return nil, fmt.Errorf("%q is not an http(s) origin", opt.Origin)
	}
	su, err := url.Parse(site)
	if err != nil || su.Host == "" {
		return nil, fmt.Errorf("%q is not the site's URL", site)
	}
	var lines []robots.Line
	for _, root := range opt.Roots {
		if root.Prefix != "/" {
			continue
		}
		if data, err := contents(root.Tree, "robots.txt"); err == nil {
			lines = robots.Parse(data).Sitemaps
		}
	}
	if len(lines) == 0 {
		return nil, nil
	}
	c, err := sitemapClient(opt, origin)
	if err != nil {
		return nil, err
	}
	timeout := opt.Timeout
	if timeout <= 0 {
		timeout = 15 * time.Second
	}
	refs := make([]sitemap.Ref, len(lines))
	for i, l := range lines {
		refs[i] = sitemap.Ref{URL: l.Value, At: fmt.Sprintf("robots.txt line %d", l.Num)}
	}
	notes := map[int][]string{}
	absolute, dup := map[int]bool{}, map[int]bool{}
	for _, p := range sitemap.Refs(site, refs) {
		notes[p.Index] = append(notes[p.Index], p.Msg)
		absolute[p.Index] = absolute[p.Index] || p.Kind == sitemap.NotAbsolute
		dup[p.Index] = dup[p.Index] || p.Kind == sitemap.Duplicate
	}
	var out []Result
	for i, l := range lines {
		switch {
		case absolute[i]:
			out = append(out, Result{Path: l.Value, URL: l.Value, Problems: notes[i]})
		case dup[i]: // checked once, where it is first named
			out = append(out, Result{Path: l.Value, URL: l.Value, Notes: notes[i]})
		default:
			out = append(out, walkSitemap(ctx, c, origin, su, l.Value, timeout, notes[i])...)
		}
	}
	return out, nil
}

// walkSitemap fetches the sitemap at u, and an index's sitemaps, and
// returns a Result for each.
func walkSitemap(ctx context.Context, c *http.Client, origin, site *url.URL, u string, timeout time.Duration, notes []string) []Result {
	got := map[string]*Result{}
	open := func(s string) (io.ReadCloser, string, error) {
		pu, err := url.Parse(s)
		r := &Result{Path: s, URL: s}
		got[s] = r
		if err != nil || !strings.EqualFold(pu.Hostname(), site.Hostname()) {
			r.Notes = append(r.Notes, "on another host than the site's: not fetched")
			return nil, "", nil
		}
		f := *origin
		f.Path, f.RawPath, f.RawQuery = pu.Path, pu.RawPath, pu.RawQuery
		r.Path, r.URL = pu.RequestURI(), f.String()
		ctx, cancel := context.WithTimeout(ctx, timeout)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL, nil)
		if err != nil {
			cancel()
			return nil, r.URL, err
		}
		resp, err := c.Do(req)
		if err != nil {
			cancel()
			return nil, r.URL, requestError(err, timeout)
		}
		for p := resp.Request; p != nil && p.Response != nil; p = p.Response.Request {
			r.Redirects++
		}
		r.Status, r.ContentType = resp.StatusCode, resp.Header.Get("Content-Type")
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			cancel()
			return nil, r.URL, fmt.Errorf("status %s, want 200", resp.Status)
		}
		return &countingBody{rc: resp.Body, cancel: cancel, n: &r.Size}, r.URL, nil
	}
	var out []Result
	for _, f := range sitemap.Walk(u, open) {
		r := got[f.URL]
		if f.Err != nil {
			r.fail("%v", f.Err)
		}
		for _, p := range f.Result.Problems {
			if p.Warning {
				r.Notes = append(r.Notes, p.String())
			} else {
				r.Problems = append(r.Problems, p.String())
			}
		}
		out = append(out, *r)
	}
	if len(out) == 0 { // not fetched
		out = append(out, *got[u])
	}
	out[0].Notes = append(notes, out[0].Notes...)
	return out
}

// countingBody counts what is read, and ends the request on Close.
type countingBody struct {
	rc     io.ReadCloser
	cancel context.CancelFunc
	n      *int
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	*b.n += n
	return n, err
}

func (b *countingBody) Close() error {
	err := b.rc.Close()
	b.cancel()
	return err
}

// sitemapClient is opt.Client with Run's redirect rules.
func sitemapClient(opt Options, origin *url.URL) (*http.Client, error) {
	allowed := map[string]bool{originOf(origin): true}
	for _, o := range opt.RedirectOrigins {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("%q is not an http(s) origin", o)
		}
		allowed[originOf(u)] = true
	}
	c := http.Client{}
	if opt.Client != nil {
		c = *opt.Client
	}
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !allowed[originOf(req.URL)] {
			return &elsewhereError{to: req.URL.String(), origin: originOf(origin)}
		}
		if len(via) > MaxRedirects {
			return errors.New("too many redirects")
		}
		return nil
	}
	return &c, nil
}
