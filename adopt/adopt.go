package adopt

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/registry"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/schema"
	"github.com/discgen/discgen/validate"
)

// Placeholder is the site.url written when nothing in the input says where
// the files are served.
const Placeholder = "https://www.example.com/"

// Options says what the input does not.
type Options struct {
	// SiteURL is the manifest's site.url; when empty it is taken from the
	// input (Sitemap lines, absolute URIs, security.txt's Canonical).
	SiteURL string
	// Now is the time the imported manifest is validated at (security.txt
	// expiry); zero means the clock.
	Now time.Time
	// Name is the manifest's file name in the positions of validation
	// errors; default site.yaml.
	Name string
}

// Result is an imported manifest.
type Result struct {
	Site manifest.Site
	// YAML is the commented manifest.
	YAML []byte
	// Diags lists what was not carried over, as warnings at the input's
	// lines, and any error validation finds in the manifest.
	Diags diag.List
	// Losses are the rules whose verdicts may differ under Google's reading
	// (see Loss).
	Losses []Loss
	// RobotsSymlink is set when autodisc/robots.txt was a symbolic link:
	// build with --robots-symlink to reproduce it.
	RobotsSymlink bool

	comments comments
	// source names the input in messages about it as a whole.
	source string
	// urls are absolute URLs seen in the input, for site.url.
	urls []string
}

// Robots imports one robots.txt. file names it in diagnostics.
func Robots(file string, data []byte, opt Options) (*Result, error) {
	r := &Result{comments: comments{}, source: file}
	r.comments.add("", modeline, "", "Imported from "+file+" by discgen import.")
	rp, err := importRobots(file, data)
	if err != nil {
		return nil, err
	}
	r.addRobots(rp, "agents")
	r.Site.Sitemaps, r.Site.MobileAgents, r.Site.Host, r.Site.Usage = rp.sitemaps, rp.mobile, rp.host, rp.usage
	r.Site.License = rp.license
	r.urls = append(r.urls, rp.sitemaps...)
	hoistUsage(&r.Site)
	return r, r.finish(opt)
}

// addRobots puts a robots.txt's groups at path (agents, or a delegatee's
// agents) with their comments; the file's other comments go to the top.
func (r *Result) addRobots(rp *robotsPart, path string) {
	r.Diags.Append(rp.diags)
	r.Losses = append(r.Losses, rp.losses...)
	if path == "agents" {
		r.Site.Agents = rp.groups
	}
	for idx, cs := range rp.comments {
		p := ""
		if idx >= 0 {
			p = manifest.Index(path, idx)
		}
		r.comments.add(p, cs...)
	}
}

// finish chooses site.url, makes same-origin URIs relative, encodes the
// manifest and validates it.
func (r *Result) finish(opt Options) error {
	site := opt.SiteURL
	if site == "" {
		for _, s := range r.urls {
			if u, err := url.Parse(s); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
				site = u.Scheme + "://" + u.Host + "/"
				break
			}
		}
	}
	if site == "" {
		site = Placeholder
		r.Diags.Warnf(diag.Pos{File: r.source}, "site.url", "nothing in the input names the site's origin: site.url is %s; give --site-url", Placeholder)
		r.comments.add("site.url", "A placeholder: nothing in the input names the site's origin.")
	}
	u, err := url.Parse(site)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Errorf("site URL %q is not an absolute http(s) URL", site)
	}
	r.Site.Version = 1
	r.Site.Site.URL = u.Scheme + "://" + strings.ToLower(u.Host) + "/"
	r.relativize()
	data, err := encodeSite(&r.Site, r.comments)
	if err != nil {
		return err
	}
	r.YAML = data
	r.selfCheck(opt)
	r.Diags.Sort()
	return nil
}

// selfCheck validates the manifest as a build would and reports its
// errors (what the input holds that discgen refuses).
func (r *Result) selfCheck(opt Options) {
	name := opt.Name
	if name == "" {
		name = "site.yaml"
	}
	doc, errs := manifest.LoadSite(name, r.YAML, "")
	if doc != nil {
		now := opt.Now
		if now.IsZero() {
			now = time.Now().UTC()
		}
		_, verrs := validate.Site(doc, validate.Options{Now: now})
		errs.Append(verrs)
	}
	for _, d := range errs {
		if d.Severity == diag.Error {
			r.Diags.Add(d)
		}
	}
}

// relativize writes URIs on the site's origin as absolute paths, which
// build resolves back to the same URIs.
func (r *Result) relativize() {
	origin := strings.TrimSuffix(r.Site.Site.URL, "/")
	rel := func(s string) string {
		if strings.HasPrefix(s, origin+"/") {
			return s[len(origin):]
		}
		return s
	}
	var walk func(d *manifest.Delegatee)
	walk = func(d *manifest.Delegatee) {
		for i := range d.Icons {
			d.Icons[i] = rel(d.Icons[i])
		}
		for i := range d.Feeds {
			d.Feeds[i].URL = rel(d.Feeds[i].URL)
		}
		for _, dl := range d.Delegations {
			if dl.Inline != nil {
				walk(dl.Inline)
			}
		}
	}
	top := manifest.Delegatee{Icons: r.Site.Icons, Feeds: r.Site.Feeds, Delegations: r.Site.Delegations}
	walk(&top)
	for i := range r.Site.Datasets {
		r.Site.Datasets[i].Path = rel(r.Site.Datasets[i].Path)
	}
	for _, k := range registry.All() {
		if df, ok := k.(kit.Defaulted); ok {
			df.DropDefaults(&r.Site, origin)
		}
	}
}

// modeline lets editors find the schema, as discgen init's starter does.
var modeline = schema.Modeline(schema.URL)
