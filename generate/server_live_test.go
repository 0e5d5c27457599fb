package generate

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tree"
	"github.com/discgen/discgen/validate"
)

// liveGet sends target as written, a raw request line, with the
// User-Agent ua.
func liveGet(t *testing.T, port int, target, ua string) (*http.Response, error) {
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 10*time.Second)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUser-Agent: %s\r\nConnection: close\r\n\r\n", target, port, ua)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return nil, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp, nil
}

// TestServerReadersLive checks the readers of TestServerReadersAgree
// against the servers they model: random manifests of that test, every
// URL in every form, every agent, sent as raw request lines to real
// nginx, Apache and Caddy configured by the generated files; each answer
// (refused or served, Content-Usage, tdm-reservation, tdm-policy) must be
// the reader's. With TestServerReadersAgree, which finds no contradiction
// between the readers and the files, it shows the real servers contradict
// the files nowhere on these cases. nginx and Caddy answer 200 for every
// path; Apache serves files, one at each path (a path that is also a
// directory of another is left out, and a response other than 200 or 403
// is only counted).
func TestServerReadersLive(t *testing.T) {
	testenv.NeedsLong(t)
	livetest.NeedsNginx(t)
	livetest.NeedsCaddy(t)
	n := *usageNFlag
	if n == 0 {
		n = 6
	}
	seed := uint64(usageDefaultSeed)
	if *usageSeedFlag != 0 {
		seed = *usageSeedFlag
	}
	g := ugen{rand.New(rand.NewPCG(seed, 0x6c697665))}
	type stat struct {
		requests, same, served, refused, other int
		statuses                               map[int]int
	}
	stats := map[string]*stat{"nginx": {statuses: map[int]int{}}, "Apache": {statuses: map[int]int{}}, "Caddy": {statuses: map[int]int{}}}
	manifests, targetsN, failures := 0, 0, 0
	for manifests < n && failures < 10 {
		src, agents := serverManifest(g)
		doc, errs := manifest.LoadSite("site.yaml", []byte(src), "")
		if doc == nil || errs.HasErrors() {
			continue
		}
		m, _ := validate.Site(doc, validate.Options{Now: now})
		if m == nil {
			continue
		}
		data, rerrs := siteRobots(doc)
		if rerrs.HasErrors() {
			continue
		}
		manifests++
		access, _ := SiteAccess(m)
		rendered := tree.Tree{"robots.txt": {Data: data}}
		public, separate, err := serverconf.RenderAccess(rendered, []serverconf.Kind{serverconf.Htaccess, serverconf.Nginx, serverconf.Caddy}, access)
		if err != nil {
			t.Fatalf("server configuration: %v\n%s", err, src)
		}
		var targets []string
		for _, u := range append(usageURLs(doc), rightsURLs(doc)...) {
			for _, tg := range urlForms(u) {
				targets = append(targets, tg)
			}
		}
		slices.Sort(targets)
		targets = slices.Compact(targets)
		targetsN += len(targets)

		dir := livetest.Dir(t)
		site := filepath.Join(dir, "site")
		conf := filepath.Join(dir, "conf")
		writeFiles(t, site, tree.Tree{"robots.txt": {Data: data}, serverconf.HtaccessFile: public[serverconf.HtaccessFile]})
		writeFiles(t, conf, separate)
		// Apache's content: a file at each path no other path goes under.
		var paths []string
		for _, tg := range targets {
			paths = append(paths, serverPath(tg))
		}
		slices.Sort(paths)
		paths = slices.Compact(paths)
		for i, p := range paths {
			if p == "/robots.txt" || p == "/.htaccess" || i+1 < len(paths) && strings.HasPrefix(paths[i+1], p+"/") || strings.ContainsRune(p, 0) {
				continue
			}
			if strings.HasSuffix(p, "/") {
				p += "index.html"
			}
			file := filepath.Join(site, filepath.FromSlash(p))
			if os.MkdirAll(filepath.Dir(file), 0o755) == nil {
				os.WriteFile(file, []byte("x"), 0o644)
			}
		}
		ngxConf := filepath.Join(dir, "server.conf")
		os.WriteFile(ngxConf, []byte(fmt.Sprintf("include %s;\nlocation / { return 200 \"ok\\n\"; }\n", filepath.Join(conf, filepath.FromSlash(serverconf.NginxFile)))), 0o644)
		ports := map[string]int{
			"nginx":  livetest.Nginx(t, livetest.Dir(t), site, ngxConf),
			"Apache": livetest.Apache(t, livetest.Dir(t), site, []string{"dir"}, "DirectoryIndex index.html\n"),
			"Caddy":  livetest.Caddy(t, livetest.Dir(t), fmt.Sprintf("\troot * %s\n\timport %s\n\thandle {\n\t\trespond \"ok\" 200\n\t}\n", site, filepath.Join(conf, filepath.FromSlash(serverconf.CaddyFile)))),
		}
		ng, ap, cd := newNginxReader(separate[serverconf.NginxFile].Data), newApacheReader(public[serverconf.HtaccessFile].Data), newCaddyReader(separate[serverconf.CaddyFile].Data)
		readers := map[string]func(request) response{
			"nginx":  func(q request) response { return ng.serve(t, q) },
			"Apache": func(q request) response { return ap.serve(t, q) },
			"Caddy":  func(q request) response { return cd.serve(t, q) },
		}
		for _, server := range []string{"nginx", "Apache", "Caddy"} {
			st := stats[server]
			for _, tg := range targets {
				for _, a := range agents {
					st.requests++
					resp, err := liveGet(t, ports[server], tg, a)
					if err != nil {
						t.Fatalf("%s: %q: %v", server, tg, err)
					}
					model := readers[server](request{target: tg, agent: a})
					var real response
					switch resp.StatusCode {
					case http.StatusOK:
						st.served++
						real = response{usage: strings.Join(resp.Header.Values("Content-Usage"), ", "), tdmRes: resp.Header.Get("tdm-reservation"), tdmPol: resp.Header.Get("tdm-policy")}
					case http.StatusForbidden:
						st.refused++
						real.refused = true
					default:
						st.other++
						st.statuses[resp.StatusCode]++
						if model.refused && resp.StatusCode < 400 {
							failures++
							t.Errorf("seed %d: %s at %q for %s: %s, the reader says %s\nmanifest:\n%s", seed, server, tg, a, resp.Status, model, src)
						}
						continue
					}
					if real != model {
						failures++
						t.Errorf("seed %d: %s at %q for %s: %s, the reader says %s\nmanifest:\n%s", seed, server, tg, a, real, model, src)
						continue
					}
					st.same++
				}
			}
		}
	}
	t.Logf("seed %d: %d manifests, %d request targets (URLs in every form), each as every agent", seed, manifests, targetsN)
	for _, s := range []string{"nginx", "Apache", "Caddy"} {
		st := stats[s]
		t.Logf("%-7s %6d requests: %6d answered as its reader says (%6d served, %5d refused), %5d other statuses %v (none a 2xx or 3xx where the reader refuses; Apache: no file there, or a directory's 301)",
			s+":", st.requests, st.same, st.served, st.refused, st.other, st.statuses)
	}
}

// writeFiles writes tr under dir, readable by all.
func writeFiles(t *testing.T, dir string, tr tree.Tree) {
	t.Helper()
	for p, e := range tr {
		file := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, e.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
