package sitemap

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/robots"
)

// CheckDir checks the sitemaps a site's robots.txt names against the
// output tree dir (validate --output): the robots.txt the manifest
// builds, built, or, when it builds none (nil), the one in dir, whose
// Sitemap lines are then checked as references too (Refs; the manifest's
// are checked by validate). Each sitemap on the site's host, under its
// path, whose file is in dir is read (Walk): a sitemap, or an index whose
// sitemaps in dir are sitemaps; each problem at its line and column in
// the file. A sitemap not in dir is not looked for: another program may
// write it, or the server make it. Files are opened through an os.Root at
// dir, so no symbolic link leads out of it, and never waited on: a FIFO
// or another file that is not regular is an error.
func CheckDir(siteURL string, built []byte, dir string) diag.List {
	var out diag.List
	site, err := url.Parse(siteURL)
	if err != nil || site.Host == "" {
		return nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		out.Errorf(diag.Pos{File: dir}, "", "the output directory: %v", unwrapPath(err))
		return out
	}
	defer root.Close()
	robotsName := filepath.ToSlash(filepath.Join(dir, "robots.txt"))
	data := built
	if data == nil {
		data, err = limited.ReadRootFile(root, "robots.txt", robots.MaxFileSize)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			out.Errorf(diag.Pos{File: robotsName}, "", "%v", err)
			return out
		}
	}
	lines := robots.Parse(data).Sitemaps
	if built == nil {
		refs := make([]Ref, len(lines))
		for i, l := range lines {
			refs[i] = Ref{URL: l.Value, At: fmt.Sprintf("%s:%d", robotsName, l.Num)}
		}
		for _, p := range Refs(siteURL, refs) {
			at := diag.Pos{File: robotsName, Line: lines[p.Index].Num, Col: 1}
			if p.Warning {
				out.Warnf(at, "", "%s", p.Msg)
			} else {
				out.Errorf(at, "", "%s", p.Msg)
			}
		}
	}
	open := func(u string) (io.ReadCloser, string, error) {
		rel, ok := inSite(site, u)
		if !ok {
			return nil, "", nil
		}
		name := filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(rel)))
		f, err := openRegular(root, rel)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", nil
		}
		return f, name, err
	}
	seen := map[string]bool{}
	for _, l := range lines {
		if seen[l.Value] {
			continue
		}
		seen[l.Value] = true
		for _, f := range Walk(l.Value, open) {
			if f.Err != nil {
				out.Errorf(diag.Pos{File: f.Name}, "", "sitemap %s: %v", f.URL, f.Err)
				continue
			}
			for _, p := range f.Result.Problems {
				at := diag.Pos{File: f.Name, Line: p.Line, Col: p.Col}
				if p.Warning {
					out.Warnf(at, "", "%s (sitemap %s)", p.Msg, f.URL)
				} else {
					out.Errorf(at, "", "%s (sitemap %s)", p.Msg, f.URL)
				}
			}
		}
	}
	return out
}

// inSite returns the path, relative to the output tree, of the file a
// URL on the site's host and under its path is served from.
func inSite(site *url.URL, u string) (string, bool) {
	pu, err := url.Parse(u)
	if err != nil || !strings.EqualFold(pu.Hostname(), site.Hostname()) || pu.RawQuery != "" {
		return "", false
	}
	base := site.Path
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	rel, ok := strings.CutPrefix(pu.Path, base)
	if !ok || rel == "" || strings.HasSuffix(rel, "/") {
		return "", false
	}
	if clean := path.Clean(rel); clean != rel || !fs.ValidPath(clean) {
		return "", false
	}
	return rel, true
}

// openRegular opens a file of root without waiting (a FIFO would wait
// for a writer) and refuses anything but a regular file.
func openRegular(root *os.Root, name string) (*os.File, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, unwrapPath(err)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is a %s, not a regular file", name, limited.TypeName(fi.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}
