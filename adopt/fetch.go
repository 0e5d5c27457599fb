package adopt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/discgen/discgen/autodisc"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/kinds/registry"
	"github.com/discgen/discgen/pathspace"
)

// FetchOptions says what Fetch reads.
type FetchOptions struct {
	// Site fetches the other discovery files too: autodisc/ (following
	// subdirectories.txt), data.txt, llms.txt and the well-known
	// resources of wellKnownProbes.
	Site bool
	// Client makes the requests; nil means a client with a 30 s timeout.
	Client *http.Client
}

// maxFetches bounds the requests one Fetch makes.
const maxFetches = 200

// Fetch downloads the discovery files of the site at origin into a
// temporary tree and imports it as Dir does (site.url is the origin).
// Without Site, only robots.txt is fetched and imported as Robots does.
func Fetch(ctx context.Context, origin string, fo FetchOptions, opt Options) (*Result, error) {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http(s) URL", origin)
	}
	base := u.Scheme + "://" + u.Host
	if opt.SiteURL == "" {
		opt.SiteURL = base + "/"
	}
	given := fo.Client
	if given == nil {
		given = &http.Client{Timeout: 30 * time.Second}
	}
	client := *given
	if client.Timeout == 0 {
		client.Timeout = 30 * time.Second
	}
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > 5 {
			return errors.New("more than 5 redirects")
		}
		return nil
	}
	c := &client
	f := &fetcher{ctx: ctx, c: c, base: base}
	robots, err := f.get("/robots.txt")
	if err != nil {
		return nil, err
	}
	if !fo.Site {
		if robots == nil {
			return nil, fmt.Errorf("%s/robots.txt: not found", base)
		}
		return Robots(base+"/robots.txt", robots, opt)
	}
	dir, err := os.MkdirTemp("", "discgen-import-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	f.dir = dir
	f.save("robots.txt", robots)
	for _, p := range append(append([]string{"data.txt"}, rootProbes...), wellKnownProbes...) {
		data, err := f.get("/" + p)
		if err != nil {
			return nil, err
		}
		f.save(p, data)
	}
	if err := f.autodisc("", pathspace.Root(), 0); err != nil {
		return nil, err
	}
	res, err := Dir(dir, opt)
	if res != nil {
		// Name the URLs, not the temporary directory.
		for i := range res.Diags {
			if rest, ok := strings.CutPrefix(res.Diags[i].File, dir); ok {
				res.Diags[i].File = base + filepath.ToSlash(rest)
			}
		}
		res.YAML = []byte(strings.ReplaceAll(string(res.YAML), "the tree in "+dir, base))
	}
	return res, err
}

// wellKnownProbes are the well-known resources Fetch asks for: a site
// lists no others, so these are the ones a static site commonly serves
// itself (the names are in the IANA registry, except nodeinfo's, which
// the NodeInfo protocol defines), then the files of the registry's kinds
// under /.well-known/ (security.txt, gpc.json, the app association
// files, the api-catalog, the A2A agent card, ...).
var wellKnownProbes = func() []string {
	out := []string{
		".well-known/nodeinfo",      // NodeInfo
		".well-known/host-meta",     // RFC 6415
		".well-known/mta-sts.txt",   // RFC 8461
		".well-known/matrix/server", // Matrix server discovery
		".well-known/matrix/client", // Matrix client discovery
		".well-known/tdmrep.json",   // W3C TDMRep (CG final report 2024-05-10)
	}
	for _, k := range registry.All() {
		if registry.WellKnown(k) && k.MediaType() != "" {
			out = append(out, k.Path())
		}
	}
	return out
}()

type fetcher struct {
	ctx  context.Context
	c    *http.Client
	base string
	dir  string
	n    int
}

// get returns the body of p, nil for 404 and 410.
func (f *fetcher) get(p string) ([]byte, error) {
	if f.n++; f.n > maxFetches {
		return nil, fmt.Errorf("more than %d files to fetch", maxFetches)
	}
	req, err := http.NewRequestWithContext(f.ctx, http.MethodGet, f.base+p, nil)
	if err != nil {
		return nil, err
	}
	resp, err := f.c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return nil, nil
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("%s%s: %s", f.base, p, resp.Status)
	}
	data, err := limited.Read(resp.Body, MaxFile)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s%s: %v", f.base, p, err)
	}
	return data, nil
}

// save writes a fetched file into the temporary tree, through an os.Root
// so that no name a server sends can place it elsewhere.
func (f *fetcher) save(p string, data []byte) {
	if data == nil {
		return
	}
	root, err := os.OpenRoot(f.dir)
	if err != nil {
		return
	}
	defer root.Close()
	name := filepath.FromSlash(p)
	if root.MkdirAll(filepath.Dir(name), 0o755) == nil {
		root.WriteFile(name, data, 0o644)
	}
}

// autodisc fetches an autodisc directory: index.txt, the files it lists,
// and the directories subdirectories.txt delegates to literal paths.
func (f *fetcher) autodisc(dir string, space pathspace.Space, depth int) error {
	adir := path.Join(dir, "autodisc")
	idx, err := f.get(escape(adir + "/index.txt"))
	if err != nil || idx == nil {
		return err
	}
	f.save(adir+"/index.txt", idx)
	for _, name := range autodisc.Lines(idx) {
		if !autodisc.ValidName(name) || name == "index.txt" {
			continue
		}
		data, err := f.get(escape(adir + "/" + name))
		if err != nil {
			return err
		}
		f.save(adir+"/"+name, data)
		if name != "subdirectories.txt" || data == nil || depth >= maxDepth {
			continue
		}
		dels, _ := autodisc.ParseSubdirectories(space, data)
		for _, d := range dels {
			if d.Space.Literal() {
				if err := f.autodisc(dirOf(d.Space), d.Space, depth+1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// escape turns a tree path into a URL path.
func escape(p string) string {
	return (&url.URL{Path: "/" + strings.TrimPrefix(p, "/")}).EscapedPath()
}
