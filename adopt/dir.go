package adopt

import (
	"bytes"
	"cmp"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/discgen/discgen/autodisc"
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
	"go.yaml.in/yaml/v3"
)

// maxDepth bounds how deep Dir follows delegations into the tree.
const maxDepth = 16

// maxWellKnown bounds how many .well-known files Dir reads.
const maxWellKnown = 1000

// maxDirs bounds how many autodisc directories Dir reads in all: symbolic
// links can make a tree's delegations lead back to where they started.
const maxDirs = 1000

// Dir imports a built tree: robots.txt, the autodisc/ directories that
// subdirectories.txt leads to, data.txt and .well-known/. Other files (the
// site's own pages) are not read. Files are read through an os.Root at
// dir, so no symbolic link leads outside it.
func Dir(dir string, opt Options) (*Result, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	d := &dirImport{root: root, dir: dir, r: &Result{comments: comments{}, source: dir}}
	d.r.comments.add("", modeline, "", "Imported from the tree in "+dir+" by discgen import.")
	return d.r, d.run(opt)
}

type dirImport struct {
	root *os.Root
	dir  string
	r    *Result
	// robots is /robots.txt as read.
	robots []byte
	// dirs counts the autodisc directories read.
	dirs int
	// err is the first robots.txt refused (importBounds): the import
	// fails with it.
	err error
}

func (d *dirImport) show(name string) string { return path.Join(d.dir, name) }

func (d *dirImport) warn(name string, line int, format string, args ...any) {
	pos := diag.Pos{File: d.show(name), Line: line}
	if line > 0 {
		pos.Col = 1
	}
	d.r.Diags.Warnf(pos, "", format, args...)
}

// read returns the regular file name, nil when it does not exist or is
// refused (which is reported).
func (d *dirImport) read(name string) []byte {
	data, _ := d.readFound(name)
	return data
}

// readFound is read, also saying whether name exists at all.
func (d *dirImport) readFound(name string) ([]byte, bool) {
	data, err := openRegular(d.root.OpenFile, name, MaxFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		d.warn(name, 0, "not read: %v", err)
		return nil, true
	}
	return data, true
}

func (d *dirImport) run(opt Options) error {
	r := d.r
	if data := d.read("robots.txt"); data != nil {
		d.robots = data
		rp, err := importRobots(d.show("robots.txt"), data)
		if err != nil {
			return err
		}
		r.addRobots(rp, "agents")
		r.Site.Sitemaps, r.Site.MobileAgents, r.Site.Host, r.Site.Usage = rp.sitemaps, rp.mobile, rp.host, rp.usage
		r.Site.License = rp.license
		d.licenseFile()
		r.urls = append(r.urls, rp.sitemaps...)
	}
	body := &manifest.Delegatee{}
	d.autodisc("", pathspace.Root(), body, "", 0)
	r.Site.Site.Description = body.Description
	r.Site.Icons, r.Site.Feeds, r.Site.Delegations, r.Site.Files = body.Icons, body.Feeds, body.Delegations, body.Files
	if data := d.read("data.txt"); data != nil {
		if utf8.Valid(data) {
			d.dataTxt(data)
		} else {
			d.warn("data.txt", 0, "is not UTF-8: left out")
		}
	}
	if d.err != nil {
		return d.err
	}
	d.wellKnown()
	d.rootKinds()
	d.redirects()
	d.policyPage()
	hoistUsage(&r.Site)
	return r.finish(opt)
}

// autodisc reads the autodisc directory of the authority for space,
// found at tree directory dir, into body; mpath is body's manifest path
// ("" for the site).
func (d *dirImport) autodisc(dir string, space pathspace.Space, body *manifest.Delegatee, mpath string, depth int) {
	adir := path.Join(dir, "autodisc")
	if d.dirs++; d.dirs > maxDirs {
		if d.dirs == maxDirs+1 {
			d.warn(adir, 0, "more than %d autodisc directories: the rest are left out", maxDirs)
		}
		return
	}
	idx := d.read(path.Join(adir, "index.txt"))
	if idx == nil {
		if dir == "" {
			if _, err := d.root.Stat(adir); err == nil {
				d.warn(adir, 0, "has no index.txt: consumers read none of its files, and neither does import")
			}
		}
		return
	}
	var listed []string
	for _, name := range autodisc.Lines(idx) {
		if autodisc.ValidName(name) && !slices.Contains(listed, name) {
			listed = append(listed, name)
		}
	}
	for _, name := range listed {
		p := path.Join(adir, name)
		if name == "index.txt" {
			continue // a build writes index.txt from the other files
		}
		if name == "robots.txt" {
			d.autodiscRobots(p, dir, body, mpath)
			continue
		}
		data, found := d.readFound(p)
		if !found {
			d.warn(path.Join(adir, "index.txt"), 0, "lists %s, which is not in the tree", name)
		}
		if data == nil {
			continue
		}
		if !utf8.Valid(data) {
			d.warn(p, 0, "is not UTF-8: left out")
			continue
		}
		ls := nonBlank(data)
		switch {
		case name == "description.txt":
			body.Description = strings.Join(ls, " ")
			if len(ls) > 1 {
				d.warn(p, 2, "a description is one line: its lines are joined")
			}
		case name == "icons.txt":
			body.Icons = ls
			d.r.urls = append(d.r.urls, ls...)
		case name == "feeds.txt":
			for _, l := range ls {
				f := manifest.Feed{URL: l}
				if strings.HasPrefix(l, "[") {
					if t, u, ok := strings.Cut(l[1:], "]"); ok {
						f = manifest.Feed{URL: strings.TrimSpace(u), Type: t}
					}
				}
				body.Feeds = append(body.Feeds, f)
				d.r.urls = append(d.r.urls, f.URL)
			}
		case name == "subdirectories.txt":
			d.subdirectories(p, data, dir, space, body, mpath, depth)
		case strings.HasPrefix(name, "x-"):
			if body.Files == nil {
				body.Files = map[string]manifest.Lines{}
			}
			body.Files[name] = textLines(data)
			if !bytes.Equal(data, []byte(strings.Join(body.Files[name], "\n")+"\n")) {
				d.warn(p, 0, "blank lines, carriage returns or a missing final line end are not kept")
			}
		default:
			d.warn(p, 0, "is not a file a manifest defines (description, icons, feeds, subdirectories, robots or x- files): left out")
		}
	}
}

// autodiscRobots reads an autodisc/robots.txt: the site's is /robots.txt
// again (or a link to it); a delegatee's holds its agents.
func (d *dirImport) autodiscRobots(p, dir string, body *manifest.Delegatee, mpath string) {
	if dir == "" {
		if fi, err := d.root.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			target, err := d.root.Readlink(p)
			if err == nil && target == "../robots.txt" {
				d.r.RobotsSymlink = true
				d.warn(p, 0, "is a symbolic link to /robots.txt: build with --robots-symlink to keep it one")
				return
			}
		}
		data := d.read(p)
		if data != nil && !bytes.Equal(data, d.robots) {
			d.warn(p, 0, "differs from /robots.txt; a build writes /robots.txt here: left out")
		}
		return
	}
	data := d.read(p)
	if data == nil {
		return
	}
	rp, err := importRobots(d.show(p), data)
	if err != nil {
		d.err = cmp.Or(d.err, err)
		return
	}
	if len(rp.sitemaps) > 0 || len(rp.mobile) > 0 || rp.host != "" || rp.usage != nil {
		d.warn(p, 0, "a delegatee's robots.txt holds agents only: its Sitemap, Mobile-agent-server and Host lines, and preference lines outside every group, are left out")
	}
	body.Agents = rp.groups
	d.r.Diags.Append(rp.diags)
	d.r.Losses = append(d.r.Losses, rp.losses...)
	ap := manifest.Key(mpath, "agents")
	for idx, cs := range rp.comments {
		p := mpath
		if idx >= 0 {
			p = manifest.Index(ap, idx)
		}
		d.r.comments.add(p, cs...)
	}
}

// subdirectories reads delegations; a literal one whose directory holds
// an autodisc/ directory becomes an inline delegatee.
func (d *dirImport) subdirectories(p string, data []byte, dir string, space pathspace.Space, body *manifest.Delegatee, mpath string, depth int) {
	dels, probs := autodisc.ParseSubdirectories(space, data)
	for _, pr := range probs {
		d.warn(p, pr.Line, "%s", pr.Message)
	}
	dpath := manifest.Key(mpath, "delegations")
	for _, dl := range dels {
		md := manifest.Delegation{Path: dl.Path, Only: dl.Grant.Only, Except: dl.Grant.Except}
		i := len(body.Delegations)
		ip := manifest.Index(dpath, i)
		if !dl.Space.Literal() {
			d.r.comments.add(ip, "Tenants' own autodisc/ directories are not in the built tree: add tenants: with a glob of their manifests.")
			body.Delegations = append(body.Delegations, md)
			continue
		}
		sub := dirOf(dl.Space)
		if depth < maxDepth {
			if _, err := d.root.Stat(path.Join(sub, "autodisc", "index.txt")); err == nil {
				md.Inline = &manifest.Delegatee{}
				d.autodisc(sub, dl.Space, md.Inline, manifest.Key(ip, "inline"), depth+1)
			}
		}
		if md.Inline == nil {
			d.r.comments.add(ip, "The delegatee's autodisc/ directory is not in the tree.")
		}
		body.Delegations = append(body.Delegations, md)
	}
}

// dirOf is the tree directory that serves a literal space.
func dirOf(s pathspace.Space) string {
	segs := s.Segments()
	for i, seg := range segs {
		if u, err := url.PathUnescape(seg); err == nil {
			segs[i] = u
		}
	}
	return strings.Join(segs, "/")
}

// dataTxt reads data.txt in either format.
func (d *dirImport) dataTxt(data []byte) {
	var entries []struct {
		Path        string `yaml:"path"`
		Name        string `yaml:"name"`
		Title       string `yaml:"title"`
		Description string `yaml:"description"`
		Type        string `yaml:"type"`
		License     string `yaml:"license"`
	}
	if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("User-agent")) && yaml.Unmarshal(data, &entries) == nil && len(entries) > 0 {
		for _, e := range entries {
			d.r.Site.Datasets = append(d.r.Site.Datasets, manifest.Dataset{Path: e.Path, Name: e.Name, Title: e.Title, Description: e.Description, Type: e.Type, License: e.License})
			d.r.urls = append(d.r.urls, e.Path)
		}
		d.r.Site.DataTxt = &manifest.DataTxt{Format: "yaml"}
		return
	}
	var comment string
	var disallow []string
	for n, l := range splitLines(data) {
		l = strings.TrimSpace(l)
		key, value, _ := strings.Cut(l, ":")
		value = strings.TrimSpace(value)
		switch {
		case l == "":
		case strings.HasPrefix(l, "#"):
			comment = strings.TrimSpace(l[1:])
		case strings.EqualFold(key, "User-agent"):
			comment = "" // a comment names the Allow line right after it
			if value != "*" {
				d.warn("data.txt", n+1, "the manifest writes one record for every agent: User-agent: %s is read as *", value)
			}
		case strings.EqualFold(key, "Allow"):
			ds := manifest.Dataset{Path: value}
			if comment != "" {
				name, title, _ := strings.Cut(comment, ": ")
				ds.Name, ds.Title = name, title
			}
			d.r.Site.Datasets = append(d.r.Site.Datasets, ds)
			comment = ""
		case strings.EqualFold(key, "Disallow"):
			comment = ""
			if value != "" {
				disallow = append(disallow, value)
			}
		default:
			d.warn("data.txt", n+1, "%s is not a data.txt field the manifest writes: left out", key)
		}
	}
	if len(disallow) > 0 {
		d.r.Site.DataTxt = &manifest.DataTxt{Disallow: disallow}
	}
}

// wellKnown reads .well-known/: security.txt and every other file.
func (d *dirImport) wellKnown() {
	fsys := d.root.FS()
	var files []string
	err := fs.WalkDir(fsys, ".well-known", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == ".well-known" {
				return fs.SkipAll
			}
			return err
		}
		if e.IsDir() {
			return nil
		}
		if len(files) == maxWellKnown {
			d.warn(".well-known", 0, "more than %d files: the rest are left out", maxWellKnown)
			return fs.SkipAll
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		d.warn(".well-known", 0, "not read: %v", err)
	}
	for _, p := range files {
		if e, err := d.root.Lstat(p); err != nil || !e.Mode().IsRegular() {
			d.warn(p, 0, "is not a regular file: left out")
			continue
		}
		data := d.read(p)
		if data == nil {
			continue
		}
		name := strings.TrimPrefix(p, ".well-known/")
		if name == "tdmrep.json" {
			d.r.Site.TDM = importTDM(data, func(line int, format string, args ...any) { d.warn(p, line, format, args...) })
			if d.r.Site.TDM != nil {
				continue
			}
		}
		wk := d.r.Site.WellKnown
		if wk == nil {
			wk = &manifest.WellKnown{}
			d.r.Site.WellKnown = wk
		}
		if !utf8.Valid(data) {
			d.warn(p, 0, "is not UTF-8 text, which a manifest cannot hold inline: left out; give it with source:")
			continue
		}
		d.siteURL(name, data)
		if d.sectionWellKnown(p, name, data) {
			continue
		}
		s := string(data)
		wk.Files = append(wk.Files, manifest.WellKnownFile{Name: name, Content: &s})
	}
}

func nonBlank(data []byte) []string {
	var out []string
	for _, l := range autodisc.Lines(data) {
		out = append(out, l)
	}
	return out
}

// textLines splits an x- file into the lines a build writes back.
func textLines(data []byte) []string {
	s := string(data)
	for _, end := range []string{"\r\n", "\n", "\r"} {
		if t, ok := strings.CutSuffix(s, end); ok {
			s = t
			break
		}
	}
	return splitLines([]byte(s))
}
