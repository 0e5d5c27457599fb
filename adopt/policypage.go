package adopt

import (
	"bytes"
	"errors"
	"html"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/discgen/discgen/internal/lazyre"
)

// policyMarker is what the policy page discgen writes (policy_page)
// carries in its head, and what Dir recognises it by: a page of the
// site's own is never taken for it.
const policyMarker = `<meta name="generator" content="discgen policy_page">`

// maxPolicyWalk bounds the directory entries Dir visits looking for the
// policy page, so that importing the tree of a large site stays quick. A
// variable for the test of the bound only.
var maxPolicyWalk = 10000

// policyHead is how much of an HTML file is read to find the marker: the
// page writes it in its first few hundred bytes.
const policyHead = 1024

var (
	policyTitle  = lazyre.New(`<title>Crawler policy of ([^<]*)</title>`)
	policyStatus = lazyre.New(`<tr class="crawler" data-name="[^"]*" data-fetch="[a-z]*" data-status="[a-z ]+">`)
)

// policyPage finds discgen's policy page among the tree's .html files,
// lexically first, up to maxPolicyWalk entries, not following symbolic
// links and not looking in autodisc/, .well-known/ or a directory whose
// name starts with a dot, and makes it policy_page. Its title gives the
// site's URL when nothing else does. What the page says the server does
// (refuses, throttles, verifies) comes from enforce, throttle and
// verified, which no built file holds: one warning says so.
func (d *dirImport) policyPage() {
	var found []string
	seen := 0
	err := fs.WalkDir(d.root.FS(), ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable directory holds no page we can read
		}
		if seen++; seen > maxPolicyWalk {
			d.warn(".", 0, "more than %d entries: discgen's policy page is looked for among the first only; if the tree has one beyond them, add policy_page: by hand", maxPolicyWalk)
			return fs.SkipAll
		}
		if e.IsDir() {
			if p != "." && (p == "autodisc" || p == ".well-known" || strings.HasPrefix(e.Name(), ".")) {
				return fs.SkipDir
			}
			return nil
		}
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".html") && d.policyMarked(p) {
			found = append(found, p)
		}
		return nil
	})
	if err != nil || len(found) == 0 {
		return
	}
	p := found[0]
	for _, o := range found[1:] {
		d.warn(o, 0, "is a discgen policy page too: only /%s is carried back as policy_page", p)
	}
	data := d.read(p)
	if data == nil {
		return
	}
	d.r.Site.PolicyPage = "/" + p
	if m := policyTitle.Compiled().FindSubmatch(data); m != nil {
		d.r.urls = append(d.r.urls, html.UnescapeString(string(m[1])))
	}
	if n := len(policyStatus.Compiled().FindAll(data, -1)); n > 0 {
		s := "s"
		if n == 1 {
			s = ""
		}
		d.warn(p, 0, "names %d crawler%s the server refuses, throttles or verifies by address: enforce, throttle and verified are server rules no built file holds, so the imported agents lack them; add them by hand", n, s)
	}
}

// policyMarked reports whether the regular file p begins as discgen's
// policy page does: the marker within its first policyHead bytes.
func (d *dirImport) policyMarked(p string) bool {
	f, err := d.root.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	head := make([]byte, policyHead)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return false
	}
	return bytes.Contains(head[:n], []byte(policyMarker))
}
