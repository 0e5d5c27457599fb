package verify

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/discgen/discgen/internal/limited"
)

// checkHome requests the site's home page "/", without following a
// redirect, and checks that the response carries each Link header value the --server configuration adds
// there (the api-catalog link of RFC 9727). The page itself is the
// site's, not the build's: only its status and those links are checked.
func checkHome(ctx context.Context, c *http.Client, origin *url.URL, links []string, timeout time.Duration) Result {
	u := *origin
	u.Path = "/"
	r := Result{Path: "/", URL: u.String()}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL, nil)
	if err != nil {
		r.fail("%v", err)
		return r
	}
	// The header belongs to the response to "/" itself: a home page that
	// redirects (to /en/, say) carries it on the redirect.
	direct := *c
	direct.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := direct.Do(req)
	if err != nil {
		r.fail("%v", requestError(err, timeout))
		return r
	}
	defer resp.Body.Close()
	body, _ := limited.Read(resp.Body, maxBody)
	_, _ = io.Copy(io.Discard, resp.Body)
	r.Size = len(body)
	r.Status = resp.StatusCode
	r.ContentType = resp.Header.Get("Content-Type")
	if resp.StatusCode < 200 || resp.StatusCode > 399 {
		r.fail("status %s, want 200 (or a redirect)", resp.Status)
		return r
	}
	got := parseLinks(resp.Header.Values("Link"))
	for _, want := range links {
		w := parseLinks([]string{want})
		if len(w) != 1 || !hasLink(got, w[0], resp.Request.URL) {
			r.fail("no Link header %s (RFC 9727: the api-catalog link on the home page)", want)
		}
	}
	return r
}

// checkFileLinks checks the Link values a file's own response must carry
// (the api-catalog's, RFC 9727 section 2) on resp, the response to GET,
// and on the response to HEAD, which RFC 9727 names too.
func checkFileLinks(ctx context.Context, c *http.Client, r *Result, j job, resp *http.Response, timeout time.Duration) {
	missing := func(method string, h http.Header, base *url.URL) {
		got := parseLinks(h.Values("Link"))
		for _, want := range j.links {
			w := parseLinks([]string{want})
			if len(w) != 1 || !hasLink(got, w[0], base) {
				r.fail("%sno Link header %s (RFC 9727 section 2: the api-catalog's own response carries it)", method, want)
			}
		}
	}
	missing("", resp.Header, resp.Request.URL)
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, r.URL, nil)
	if err != nil {
		r.fail("HEAD: %v", err)
		return
	}
	head, err := c.Do(req)
	if err != nil {
		r.fail("HEAD: %v", requestError(err, timeout))
		return
	}
	head.Body.Close()
	if head.StatusCode != http.StatusOK {
		r.fail("HEAD: status %s, want 200", head.Status)
		return
	}
	missing("HEAD: ", head.Header, head.Request.URL)
}

// link is one link-value of a Link header (RFC 8288 section 3): its
// target and its relation types, lower-cased.
type link struct {
	target string
	rels   []string
}

// parseLinks reads Link header values: link-values separated by commas
// outside <...> and quoted strings, each "<target>" then ";"-separated
// parameters, of which only rel is kept.
func parseLinks(values []string) []link {
	var out []link
	for _, v := range values {
		for _, lv := range splitOutside(v, ',') {
			lv = strings.TrimSpace(lv)
			if !strings.HasPrefix(lv, "<") {
				continue
			}
			end := strings.IndexByte(lv, '>')
			if end < 0 {
				continue
			}
			l := link{target: lv[1:end]}
			for _, param := range splitOutside(lv[end+1:], ';') {
				name, val, ok := strings.Cut(strings.TrimSpace(param), "=")
				if !ok || !strings.EqualFold(strings.TrimSpace(name), "rel") {
					continue
				}
				val = strings.Trim(strings.TrimSpace(val), `"`)
				l.rels = append(l.rels, strings.Fields(strings.ToLower(val))...)
			}
			out = append(out, l)
		}
	}
	return out
}

// splitOutside splits s at sep where it stands outside <...> and quoted
// strings.
func splitOutside(s string, sep byte) []string {
	var out []string
	inAngle, inQuote := false, false
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inQuote && c == '\\':
			i++
		case c == '"' && !inAngle:
			inQuote = !inQuote
		case c == '<' && !inQuote:
			inAngle = true
		case c == '>' && !inQuote:
			inAngle = false
		case c == sep && !inAngle && !inQuote:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// hasLink reports whether got holds a link to want's target, resolved
// against base, with every relation want names.
func hasLink(got []link, want link, base *url.URL) bool {
	wt, err := base.Parse(want.target)
	if err != nil {
		return false
	}
	for _, g := range got {
		gt, err := base.Parse(g.target)
		if err != nil || gt.String() != wt.String() {
			continue
		}
		if !slices.ContainsFunc(want.rels, func(r string) bool { return !slices.Contains(g.rels, r) }) {
			return true
		}
	}
	return false
}
