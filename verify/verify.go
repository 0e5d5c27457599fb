// Package verify checks a deployed site against its build.
//
// It fetches every file the build produces from the site's origin (or a
// staging origin) and checks, for each:
//
//   - the response: status 200, at most MaxRedirects redirects, within the
//     timeout. A redirect is followed only within the origin checked
//     (scheme, host and port), or to an origin Options.RedirectOrigins
//     allows: a site must not make the machine that verifies it fetch
//     other URLs (an address inside its network). A redirect elsewhere is
//     reported, not followed;
//   - the media type and charset the serverconf table gives the file
//     (text/plain; charset=utf-8 for robots.txt, data.txt, autodisc files
//     and .txt well-known files, as RFC 9309, RFC 9116 and the autodisc
//     draft ask; text/markdown; charset=utf-8 for llms.txt; the RFC 9727
//     profile parameter for the api-catalog), and valid UTF-8 for text and
//     JSON (RFC 8259 section 8.1);
//   - the bytes, equal to the build's; for robots.txt, the meaning
//     (meaning.go): a file a CDN or host rewrote is reported as the fetch
//     verdicts and usage preferences that differ, per agent and path, with
//     the lines added named; a byte difference that changes no meaning is
//     a note;
//   - robots.txt within 500 KiB (RFC 9309 section 2.5);
//   - what a kind checks of its deployed copy beyond its bytes
//     (kit.DeployedChecker): security.txt served over https (RFC 9116
//     section 3) and not past its Expires;
//   - with an api-catalog, the home page "/" answering (200, or a redirect
//     not followed) with the Link header RFC 9727 names
//     (rel="api-catalog"), as --server adds it.
//   - with the manifest's licence, its published RSL document served as
//     application/rsl+xml (RSL 1.0), and each response's Link and tdm
//     headers (license.go);
//   - with the manifest's usage preferences, the Content-Usage header
//     --server configuration sends (missing: a note; wrong: a problem;
//     the same preferences written otherwise: a note).
//   - apple-app-site-association and assetlinks.json fetched as iOS and
//     Android fetch them, following no redirect; and, with a
//     change_password, /.well-known/change-password answering with a
//     302, 303 or 307 to it (wellknownfiles.go);
//   - the OAuth metadata documents (oauth-protected-resource,
//     oauth-authorization-server) served with Access-Control-Allow-Origin:
//     *, which a browser-based client of another origin (an MCP client in
//     a web page) needs to read them (a kind of the registry that says
//     so, kit.CrossOrigin), and, for a file whose kind names the CORS
//     headers it is served with (kit.Served: the MCP catalogue and cards,
//     the OAuth metadata), a CORS preflight answered with a 2xx that
//     allows any origin and each of those headers (wellknownfiles.go).
//
// Files are fetched a few at a time; results keep the build's file order.
package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tree"
)

// MaxRedirects is the most redirects followed for one file, as
// security.txt checkers allow.
const MaxRedirects = 5

// maxBody bounds a response read: larger than any file a build writes.
const maxBody = 8 << 20

// Root is one tree of files to check and the URL path it is served under:
// "/" for the site, a tenant's space ("/~alice/") for a tenant's tree.
type Root struct {
	Prefix string
	Tree   tree.Tree
}

// Options says what to check and how.
type Options struct {
	// Origin is where the files are fetched from: scheme://host[:port].
	Origin string
	// Staging says Origin is not the site's own origin: security.txt over
	// plain http is then reported as a note, not a failure.
	Staging bool
	Roots   []Root
	// Now is when security.txt must not have expired.
	Now time.Time
	// Client makes the requests; nil means one with Timeout.
	Client  *http.Client
	Timeout time.Duration // per file; default 15s
	// Parallel bounds the fetches at once; default 4.
	Parallel int
	// Usage is the site's usage preferences: each response's Content-Usage
	// header is checked against them (usage.go). Nil: not checked.
	Usage *robots.Usage
	// Rights is the site's licence and reservation: each response's Link,
	// tdm-reservation and tdm-policy headers are checked against them
	// (license.go). Nil: not checked.
	Rights *serverconf.Rights
	// RedirectOrigins are the origins (scheme://host[:port]) besides
	// Origin that redirects may lead to; a redirect to any other is
	// reported and not followed.
	RedirectOrigins []string
	// Redirects are the resources --server answers with a redirect
	// (change-password): each must redirect to its target (wellknownfiles.go).
	Redirects []serverconf.Redirect
}

// Result is the outcome for one file.
type Result struct {
	Path        string   `json:"path"` // the URL path
	URL         string   `json:"url"`
	Status      int      `json:"status,omitempty"`
	ContentType string   `json:"content_type,omitempty"`
	Size        int      `json:"size"`
	Redirects   int      `json:"redirects,omitempty"`
	Problems    []string `json:"problems,omitempty"`
	Notes       []string `json:"notes,omitempty"`
}

// OK reports whether the file passed every check.
func (r *Result) OK() bool { return len(r.Problems) == 0 }

func (r *Result) fail(format string, args ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}

// job is one file to fetch.
type job struct {
	path, want string // URL path; the Content-Type the server must send
	data       []byte
	links      []string // Link values its response must carry, GET and HEAD
}

// Run fetches and checks every file of opt.Roots.
func Run(ctx context.Context, opt Options) ([]Result, error) {
	origin, err := url.Parse(strings.TrimSuffix(opt.Origin, "/"))
	if err != nil || (origin.Scheme != "http" && origin.Scheme != "https") || origin.Host == "" {
		return nil, fmt.Errorf("%q is not an http(s) origin", opt.Origin)
	}
	var jobs []job
	for _, root := range opt.Roots {
		for _, p := range root.Tree.Paths() {
			data, err := contents(root.Tree, p)
			if err != nil {
				return nil, err
			}
			ct, err := serverconf.ContentType(root.Tree, p)
			if opt.Rights != nil && root.Prefix == "/" {
				ct, err = opt.Rights.ContentType(root.Tree, p) // the RSL document's type
			}
			if err != nil {
				return nil, err
			}
			jobs = append(jobs, job{path: strings.TrimSuffix(root.Prefix, "/") + "/" + p, want: ct, data: data, links: serverconf.FileLinks(root.Tree, p)})
		}
	}
	allowed := map[string]bool{originOf(origin): true}
	for _, o := range opt.RedirectOrigins {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return nil, fmt.Errorf("%q is not an http(s) origin", o)
		}
		allowed[originOf(u)] = true
	}
	client := opt.Client
	if client == nil {
		client = &http.Client{}
	}
	c := *client
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !allowed[originOf(req.URL)] {
			return &elsewhereError{to: req.URL.String(), origin: originOf(origin)}
		}
		if len(via) > MaxRedirects {
			return fmt.Errorf("more than %d redirects", MaxRedirects)
		}
		return nil
	}
	timeout := opt.Timeout
	if timeout <= 0 {
		timeout = 15 * time.Second
	}
	par := opt.Parallel
	if par <= 0 {
		par = 4
	}
	results := make([]Result, len(jobs))
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			results[i] = check(ctx, &c, origin, j, opt, timeout)
		}()
	}
	wg.Wait()
	for _, root := range opt.Roots {
		if links := serverconf.HomeLinks(root.Tree); root.Prefix == "/" && len(links) > 0 {
			results = append(results, checkHome(ctx, &c, origin, links, timeout))
		}
	}
	results = append(results, checkRedirects(ctx, &c, origin, opt.Redirects, timeout)...)
	return results, nil
}

// contents returns what the file at p holds: a link's target's bytes.
func contents(t tree.Tree, p string) ([]byte, error) {
	cur := p
	for range 40 {
		e, ok := t[cur]
		if !ok {
			return nil, fmt.Errorf("%s: link target %s is not in the build", p, cur)
		}
		if e.Link == "" {
			return e.Data, nil
		}
		cur = joinLink(cur, e.Link)
	}
	return nil, fmt.Errorf("%s: too many links", p)
}

func joinLink(from, link string) string { return path.Join(path.Dir(from), link) }

func check(ctx context.Context, c *http.Client, origin *url.URL, j job, opt Options, timeout time.Duration) Result {
	u := *origin
	u.Path = j.path
	r := Result{Path: j.path, URL: u.String()}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL, nil)
	if err != nil {
		r.fail("%v", err)
		return r
	}
	redirects := 0
	resp, err := consumerClient(c, j.path).Do(req)
	if err != nil {
		var ee *elsewhereError
		if errors.As(err, &ee) && resp != nil {
			r.Status = resp.StatusCode
		}
		r.fail("%v", requestError(err, timeout))
		return r
	}
	defer resp.Body.Close()
	for p := resp.Request; p != nil && p.Response != nil; p = p.Response.Request {
		redirects++
	}
	r.Redirects = redirects
	r.Status = resp.StatusCode
	r.ContentType = resp.Header.Get("Content-Type")
	body, err := limited.Read(resp.Body, maxBody)
	if err != nil && !errors.Is(err, io.EOF) {
		r.fail("reading the body: %v", requestError(err, timeout))
		return r
	}
	r.Size = len(body)
	if consumerRedirect(&r, j.path, resp) {
		return r
	}
	if resp.StatusCode != http.StatusOK {
		r.fail("status %s, want 200", resp.Status)
		return r
	}
	checkType(&r, j.want)
	n := len(r.Problems)
	checkCORS(&r, j.path, resp.Header)
	if len(r.Problems) == n {
		checkPreflight(ctx, c, &r, j.path) // after a GET a browser could read
	}
	checkUsageHeader(&r, opt.Usage, j.path, resp.Header)
	checkRightsHeaders(&r, opt.Rights, j.path, resp.Header)
	if len(j.links) > 0 {
		checkFileLinks(ctx, c, &r, j, resp, timeout)
	}
	if (strings.HasPrefix(j.want, "text/") || strings.Contains(j.want, "json")) && !utf8.Valid(body) {
		r.fail("not valid UTF-8")
	}
	if !bytes.Equal(body, j.data) {
		if j.path == "/robots.txt" && utf8.Valid(body) {
			// A rewritten robots.txt is judged by meaning (meaning.go).
			CompareRobots(j.data, body).Report(&r, len(body), len(j.data))
		} else {
			r.fail("differs from the build (%d bytes served, %d built%s)", len(body), len(j.data), firstDiff(body, j.data))
		}
	}
	if j.path == "/robots.txt" && len(body) > robots.MaxFileSize {
		r.fail("%d bytes: over the %d KiB crawlers read (RFC 9309 section 2.5)", len(body), robots.MaxFileSize>>10)
	}
	if dc, ok := deployedCheckers[j.path]; ok {
		for _, d := range dc.CheckDeployed(resp.Request.URL.Scheme, body, opt.Now) {
			if d.StagingNote != "" && opt.Staging {
				r.Notes = append(r.Notes, d.StagingNote)
			} else {
				r.fail("%s", d.Message)
			}
		}
	}
	return r
}

// checkType compares the served Content-Type with the one wanted: the
// media type, and the charset where the wanted type names one.
func checkType(r *Result, want string) {
	wt, wp, _ := mime.ParseMediaType(want)
	got := r.ContentType
	if got == "" {
		r.fail("no Content-Type, want %s", want)
		return
	}
	gt, gp, err := mime.ParseMediaType(got)
	if err != nil {
		r.fail("Content-Type %q cannot be read: %v", got, err)
		return
	}
	if gt != wt {
		r.fail("Content-Type %s, want %s", got, want)
		return
	}
	if pr := wp["profile"]; pr != "" && gp["profile"] != pr {
		// RFC 9727: the api-catalog's profile tells it from any other
		// linkset; a profile is a URI, compared exactly.
		if gp["profile"] == "" {
			r.fail("Content-Type %s has no profile, want %s", got, want)
		} else {
			r.fail("Content-Type %s, want profile %q", got, pr)
		}
		return
	}
	if cs := wp["charset"]; cs != "" && !strings.EqualFold(gp["charset"], cs) {
		if gp["charset"] == "" {
			r.fail("Content-Type %s has no charset, want %s", got, want)
		} else {
			r.fail("Content-Type %s, want charset %s", got, cs)
		}
	}
}

func firstDiff(a, b []byte) string {
	n := min(len(a), len(b))
	line := 1
	for i := range n {
		if a[i] != b[i] {
			return fmt.Sprintf("; first difference on line %d", line)
		}
		if a[i] == '\n' {
			line++
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf("; one ends on line %d", line)
	}
	return ""
}

// elsewhereError is a redirect out of the origins allowed, not followed.
type elsewhereError struct{ to, origin string }

func (e *elsewhereError) Error() string {
	return fmt.Sprintf("redirects to %s, outside %s: not followed (allow it with --allow-redirect)", e.to, e.origin)
}

// originOf is u's origin, scheme://host:port, in lower case and with the
// scheme's default port written out.
func originOf(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(net.JoinHostPort(u.Hostname(), port))
}

// requestError says why a request got no response: the cause a url.Error
// wraps, and a deadline as the time it allowed.
func requestError(err error, timeout time.Duration) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("no complete response within %v", timeout)
	}
	return err
}
