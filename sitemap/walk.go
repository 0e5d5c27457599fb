package sitemap

import (
	"fmt"
	"io"
)

// MaxChildren bounds the sitemaps of one index that Walk reads.
const MaxChildren = 100

// File is one file Walk checked.
type File struct {
	URL    string
	Name   string // where it was read from: a path of the output tree, or the URL
	Result Result
	Err    error // it could not be read (a 404, say); Result is empty
}

// Opener opens the file at a sitemap URL. It returns a nil reader, and
// no error, for a URL it does not look at (not in the output tree,
// another host); name says where the file was read from.
type Opener func(u string) (r io.ReadCloser, name string, err error)

// Walk reads the sitemap at u and, when it is an index, the sitemaps it
// lists (at most MaxChildren), each through open: an index that lists an
// index gets a problem at that entry's loc. The first File is u's; it is
// absent when open does not look at u.
func Walk(u string, open Opener) []File {
	root, ok := read(u, open)
	if !ok {
		return nil
	}
	out := []File{root}
	if root.Err != nil || root.Result.Kind != Index {
		return out
	}
	for i, l := range root.Result.Locs {
		if i == MaxChildren {
			out[0].Result.Problems = append(out[0].Result.Problems, Problem{Warning: true, Msg: fmt.Sprintf("lists %d sitemaps; the first %d were checked", len(root.Result.Locs), MaxChildren)})
			break
		}
		child, ok := read(l.URL, open)
		if !ok {
			continue
		}
		if child.Err == nil && child.Result.Kind == Index {
			out[0].Result.Problems = append(out[0].Result.Problems, Problem{Line: l.Line, Col: l.Col, Msg: fmt.Sprintf("lists %s, itself a sitemap index: an index may list sitemaps only (sitemaps.org), and crawlers skip the nested one", l.URL)})
		}
		out = append(out, child)
	}
	return out
}

func read(u string, open Opener) (File, bool) {
	r, name, err := open(u)
	if err != nil {
		return File{URL: u, Name: name, Err: err}, true
	}
	if r == nil {
		return File{}, false
	}
	defer r.Close()
	return File{URL: u, Name: name, Result: Read(r)}, true
}
