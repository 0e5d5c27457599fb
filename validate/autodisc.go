package validate

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/discgen/discgen/autodisc"
	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/manifest"
)

func (v *checker) description(p, d string) {
	if n := utf8.RuneCountInString(d); n > autodisc.MaxDescription {
		v.warn(p, "description is %d characters; seed 000 asks for at most %d, and readers may cut it", n, autodisc.MaxDescription)
	}
}

// siteURL checks the site origin.
func (v *checker) siteURL(p, s string) {
	u, err := url.Parse(s)
	switch {
	case err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "":
		v.err(p, "%q must be an absolute http(s) URL such as https://www.example.org/", s)
	case u.Scheme != "http" && u.Scheme != "https":
		v.err(p, "%q must use http or https", s)
	case u.User != nil || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "#"):
		v.err(p, "%q must be an origin: no user, query or fragment", s)
	case u.Path != "" && u.Path != "/":
		v.err(p, "%q must be an origin, with no path after the host (discovery files live at the root)", s)
	}
}

// absURL checks an absolute http(s) URL.
func (v *checker) absURL(p, s, what string) bool {
	if !v.noSpace(p, s, what) || !v.escapes(p, s) {
		return false
	}
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		v.err(p, "%q: %s must be an absolute http(s) URL", s, what)
		return false
	}
	return true
}

// uriRef checks a URI reference that a consumer resolves against the site
// (an icon or a feed): a relative reference, or an absolute http(s) URL.
func (v *checker) uriRef(p, s, what string) *url.URL {
	if !v.noSpace(p, s, what) || !v.escapes(p, s) {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil {
		v.err(p, "%q is not a valid URI reference", s)
		return nil
	}
	if u.IsAbs() && ((u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
		v.err(p, "%q: %s must be a path or an absolute http(s) URL", s, what)
		return nil
	}
	return u
}

func (v *checker) icons(p string, icons []string) {
	for i, ic := range icons {
		ip := manifest.Index(p, i)
		v.tenantRef(ip, ic, v.uriRef(ip, ic, "an icon"))
	}
}

var mediaTypeRE = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$`)

func (v *checker) feeds(p string, feeds []manifest.Feed) {
	for i, f := range feeds {
		fp := manifest.Index(p, i)
		if strings.HasPrefix(f.URL, "[") {
			// feeds.txt reads a leading "[...]" as the feed's type.
			v.err(manifest.Key(fp, "url"), "%q: a feed URL cannot start with \"[\"; write it as %%5B", f.URL)
			continue
		}
		u := v.uriRef(manifest.Key(fp, "url"), f.URL, "a feed URL")
		v.tenantRef(manifest.Key(fp, "url"), f.URL, u)
		if f.Type != "" {
			v.feedType(manifest.Key(fp, "type"), f.Type)
		} else if u != nil && !autodisc.HasFeedExtension(u.Path) {
			v.err(fp, "feed %q needs a type: its path has no feed extension (%s)", f.URL, strings.Join(autodisc.FeedExtensions(), " "))
		}
	}
}

// feedType accepts a MIME media type or a namespace URI (seed 000 4.6).
func (v *checker) feedType(p, t string) {
	if mediaTypeRE.MatchString(t) && !strings.Contains(t, "://") {
		return
	}
	if u, err := url.Parse(t); err == nil && u.IsAbs() && !strings.ContainsAny(t, " \t[]") {
		return
	}
	v.err(p, "%q is neither a media type (application/rss+xml) nor a namespace URI", t)
}

// xName is an extra autodisc file name: seed 000 section 5.1 reserves the
// "x-" prefix for experimental and unregistered files.
var xName = lazyre.New(`^x-[A-Za-z0-9][A-Za-z0-9._-]*$`)

func (v *checker) files(p string, files map[string]manifest.Lines) {
	for name := range files {
		if !xName.MatchString(name) {
			v.errKey(manifest.Key(p, name), "%q: extra autodisc files must be named x-NAME (letters, digits, \".\", \"_\" and \"-\")", name)
		}
	}
}
