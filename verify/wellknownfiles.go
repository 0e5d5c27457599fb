package verify

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/registry"
	"github.com/discgen/discgen/serverconf"
)

// The files of design section 13 are fetched as their consumers fetch
// them. iOS (apple-app-site-association, Apple's "Supporting associated
// domains") and Android (assetlinks.json, "Verify Android App Links")
// follow no redirect: a redirect there is a failure, not followed. The
// media type of each is checked as for every file (serverconf's table:
// application/json, application/trafficadvice+json, text/plain for
// atproto-did). /.well-known/change-password is a redirect (W3C "A
// Well-Known URL for Changing Passwords": 302, 303 or 307): verify expects
// one, to the manifest's target, and does not follow it.

// noRedirect names, for each URL path whose consumer follows no redirect
// (a kind of the registry that says so, kit.NoRedirect), that consumer.
var noRedirect = func() map[string]string {
	m := map[string]string{}
	for _, k := range registry.All() {
		if nr, ok := k.(kit.NoRedirect); ok {
			m["/"+k.Path()] = nr.Consumer()
		}
	}
	return m
}()

// deployedCheckers are, by URL path, the kinds with checks of their
// deployed copy beyond its bytes and headers (kit.DeployedChecker:
// security.txt's https and Expires).
var deployedCheckers = func() map[string]kit.DeployedChecker {
	m := map[string]kit.DeployedChecker{}
	for _, k := range registry.All() {
		if dc, ok := k.(kit.DeployedChecker); ok {
			m["/"+k.Path()] = dc
		}
	}
	return m
}()

// crossOrigin names, for each URL path that scripts of other origins
// read (a kind of the registry that says so, kit.CrossOrigin), that
// reader.
var crossOrigin = func() map[string]string {
	m := map[string]string{}
	for _, k := range registry.All() {
		if co, ok := k.(kit.CrossOrigin); ok {
			m["/"+k.Path()] = co.CrossOriginReader()
		}
	}
	return m
}()

// servedCrossOrigin names the reader of a file a cross-origin kind
// publishes besides its own (kit.Served: the MCP catalogue's cards).
func servedCrossOrigin(path string) (string, bool) {
	for _, k := range registry.All() {
		co, isCO := k.(kit.CrossOrigin)
		sv, isServed := k.(kit.Served)
		if !isCO || !isServed {
			continue
		}
		if _, ok := sv.Serving(strings.TrimPrefix(path, "/")); ok {
			return co.CrossOriginReader(), true
		}
	}
	return "", false
}

// checkCORS fails r when path is read from other origins and the
// response does not allow every origin: the Fetch standard's CORS check
// then blocks the reader's script.
func checkCORS(r *Result, path string, h http.Header) {
	who, ok := crossOrigin[path]
	if !ok {
		who, ok = servedCrossOrigin(path)
	}
	if !ok {
		return
	}
	switch got := h.Values("Access-Control-Allow-Origin"); {
	case len(got) == 0:
		r.fail("no Access-Control-Allow-Origin, want *: %s cannot read it from another origin", who)
	case len(got) > 1 || got[0] != "*":
		r.fail("Access-Control-Allow-Origin %q, want *: %s cannot read it from another origin", strings.Join(got, ", "), who)
	}
}

// consumerClient returns the client that fetches path as its consumer
// does: c, or a copy of c that follows no redirect.
func consumerClient(c *http.Client, path string) *http.Client {
	if _, ok := noRedirect[path]; !ok {
		return c
	}
	nc := *c
	nc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &nc
}

// consumerRedirect fails r when path's consumer follows no redirect and
// the response is one; it reports whether it did.
func consumerRedirect(r *Result, path string, resp *http.Response) bool {
	who, ok := noRedirect[path]
	if !ok || resp.StatusCode < 300 || resp.StatusCode > 399 {
		return false
	}
	r.fail("status %s to %q: %s follows no redirect, so the file must be served at this URL with 200", resp.Status, resp.Header.Get("Location"), who)
	return true
}

// checkRedirects requests each redirect's path, following nothing, and
// expects the status the specification allows and a Location that is
// the redirect's target, resolved against the request's URL.
func checkRedirects(ctx context.Context, c *http.Client, origin *url.URL, rs []serverconf.Redirect, timeout time.Duration) []Result {
	nc := *c
	nc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	var out []Result
	for _, rd := range rs {
		u := *origin
		u.Path = "/" + rd.From
		r := Result{Path: u.Path, URL: u.String()}
		out = append(out, r)
		res := &out[len(out)-1]
		func() {
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, res.URL, nil)
			if err != nil {
				res.fail("%v", err)
				return
			}
			resp, err := nc.Do(req)
			if err != nil {
				res.fail("%v", requestError(err, timeout))
				return
			}
			resp.Body.Close()
			res.Status = resp.StatusCode
			switch resp.StatusCode {
			case http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect:
			case http.StatusMovedPermanently, http.StatusPermanentRedirect:
				res.fail("status %s: a change-password URL redirects with 302, 303 or 307, so that its target can move", resp.Status)
				return
			default:
				res.fail("status %s, want a redirect (302) to %s", resp.Status, rd.To)
				return
			}
			res.Redirects = 1
			loc, err := resp.Location()
			if err != nil {
				if errors.Is(err, http.ErrNoLocation) {
					res.fail("status %s without a Location", resp.Status)
				} else {
					res.fail("Location %q cannot be read: %v", resp.Header.Get("Location"), err)
				}
				return
			}
			want, err := req.URL.Parse(rd.To)
			switch {
			case err != nil:
				res.fail("the target %q cannot be read: %v", rd.To, err)
			case rd.To[0] == '/' && loc.Path == want.Path && loc.RawQuery == want.RawQuery:
				// A path of the site: a server may name itself by another
				// host (nginx's server_name) when it makes it absolute.
				if originOf(loc) != originOf(want) {
					res.Notes = append(res.Notes, fmt.Sprintf("redirects to %s, on another origin than the one checked", loc))
				}
			case loc.String() != want.String():
				res.fail("redirects to %s, want %s", loc, rd.To)
			}
		}()
	}
	return out
}

// preflightOrigin is the Origin a preflight is sent from (RFC 2606's
// reserved domain: no site trusts it).
const preflightOrigin = "https://client.example"

// preflightServing returns the headers of a file that scripts of other
// origins read with a header of their own (kit.Served with
// AllowMethods: the MCP catalogue and cards, the OAuth metadata), and its
// reader.
func preflightServing(path string) (kit.Serving, string, bool) {
	for _, k := range registry.All() {
		co, isCO := k.(kit.CrossOrigin)
		sv, isServed := k.(kit.Served)
		if !isCO || !isServed {
			continue
		}
		if s, ok := sv.Serving(strings.TrimPrefix(path, "/")); ok && s.AllowMethods != "" {
			return s, co.CrossOriginReader(), true
		}
	}
	return kit.Serving{}, "", false
}

// checkPreflight sends the CORS preflight a browser sends before such a
// reader's GET (OPTIONS, Access-Control-Request-Method: GET and
// Access-Control-Request-Headers naming the headers the kind allows, as
// a browser names them: lower case, sorted) and fails r unless the answer
// is a 2xx, not a redirect (a browser follows none for a preflight), that
// allows any origin and each header (Fetch standard, CORS-preflight
// fetch). Access-Control-Max-Age is not required.
func checkPreflight(ctx context.Context, c *http.Client, r *Result, path string) {
	s, who, ok := preflightServing(path)
	if !ok {
		return
	}
	var want []string
	for _, h := range strings.Split(s.AllowHeaders, ",") {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			want = append(want, h)
		}
	}
	slices.Sort(want)
	asked := strings.Join(want, ",")
	req, err := http.NewRequestWithContext(ctx, http.MethodOptions, r.URL, nil)
	if err != nil {
		r.fail("%v", err)
		return
	}
	req.Header.Set("Origin", preflightOrigin)
	req.Header.Set("Access-Control-Request-Method", http.MethodGet)
	if asked != "" {
		req.Header.Set("Access-Control-Request-Headers", asked)
	}
	nc := *c
	nc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := nc.Do(req)
	if err != nil {
		r.fail("CORS preflight (OPTIONS): %v", err)
		return
	}
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		r.fail("CORS preflight (OPTIONS with Access-Control-Request-Headers: %s) answers %s, want 204: %s does not send the GET after it", asked, resp.Status, who)
		return
	}
	if got := resp.Header.Values("Access-Control-Allow-Origin"); len(got) != 1 || got[0] != "*" && got[0] != preflightOrigin {
		r.fail("CORS preflight (OPTIONS): Access-Control-Allow-Origin %q, want *: %s does not send the GET after it", strings.Join(got, ", "), who)
	}
	allowed := map[string]bool{}
	for _, v := range resp.Header.Values("Access-Control-Allow-Headers") {
		for _, h := range strings.Split(v, ",") {
			allowed[strings.ToLower(strings.TrimSpace(h))] = true
		}
	}
	var missing []string
	for _, h := range want {
		if !allowed[h] && !allowed["*"] {
			missing = append(missing, h)
		}
	}
	if len(missing) > 0 {
		r.fail("CORS preflight (OPTIONS): Access-Control-Allow-Headers %q does not allow %s: %s does not send the GET after it", strings.Join(resp.Header.Values("Access-Control-Allow-Headers"), ", "), strings.Join(missing, ", "), who)
	}
}
