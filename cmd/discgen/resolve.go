package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/discgen/discgen/autodisc"
	"github.com/discgen/discgen/internal/limited"
)

// runResolve reads the autodisc tree built into -o as a consumer would and
// prints the chain of authorities for a URL path, then each file's source.
//
// Text output, root first:
//
//	authority / (public/autodisc)
//	authority /~alice/ (public/~alice/autodisc)
//	description.txt  /~alice/
//	robots.txt  /  (excepted by /)
//	icons.txt  undefined (not delegated: only-list of /~alice/)
//
// Warnings about the files read go to stderr in the diagnostic grammar; with
// --format json they are part of the document instead.
func runResolve(args []string, stdout, stderr io.Writer) error {
	var dir, format string
	fset := newFlags("resolve", resolveUsage, stdout)
	fset.StringVarP(&dir, "output", "o", "public", "")
	fset.StringVar(&format, "format", "text", "")
	if err := parseFlags(fset, args); err != nil {
		return helpOK(err)
	}
	if err := checkFormat(format, formats["resolve"]...); err != nil {
		return err
	}
	if fset.NArg() != 1 {
		return usagef("resolve: give one URL path, such as /~alice/blog/post.html")
	}
	p, err := urlPath(fset.Arg(0))
	if err != nil {
		return err
	}

	root, err := os.OpenRoot(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return noAutodisc(dir)
		}
		return fmt.Errorf("%s: %v", dir, unwrapPathErr(err))
	}
	defer root.Close()
	// os.Root keeps every read inside dir: a link in the tree cannot lead
	// the reader elsewhere (seed 000 section 6).
	res, err := autodisc.Resolve(limited.RootFS(root), p)
	if errors.Is(err, autodisc.ErrNoAutodisc) {
		return noAutodisc(dir)
	}
	if err != nil {
		return err
	}

	at := func(rel string) string {
		if rel == "" {
			return ""
		}
		return filepath.Join(dir, filepath.FromSlash(rel))
	}
	if format == "json" {
		return writeResolveJSON(stdout, res, at)
	}
	for _, lv := range res.Chain {
		where := at(lv.Dir)
		switch {
		case lv.Read:
		case where == "":
			where = lv.Note
		default:
			where += ": " + lv.Note
		}
		fmt.Fprintf(stdout, "authority %s (%s)\n", lv.Space, where)
	}
	for _, f := range res.Files {
		switch {
		case !f.Defined:
			fmt.Fprintf(stdout, "%s  undefined (%s)\n", f.Name, f.Reason)
		case f.Reason != "":
			fmt.Fprintf(stdout, "%s  %s  (%s)\n", f.Name, res.Chain[f.Level].Space, f.Reason)
		default:
			fmt.Fprintf(stdout, "%s  %s\n", f.Name, res.Chain[f.Level].Space)
		}
	}
	for _, w := range res.Warnings {
		w.File = at(w.File)
		fmt.Fprintln(stderr, w.String())
	}
	return nil
}

// urlPath takes the URL path to resolve: a path beginning with "/", or the
// path of an absolute URL.
func urlPath(arg string) (string, error) {
	if strings.HasPrefix(arg, "/") {
		return arg, nil
	}
	if u, err := url.Parse(arg); err == nil && u.Scheme != "" && u.Host != "" {
		if p := u.EscapedPath(); p != "" {
			return p, nil
		}
		return "/", nil
	}
	return "", usagef("resolve: %q is not a URL path: give one beginning with \"/\", or an absolute URL", arg)
}

func noAutodisc(dir string) error {
	return &hintError{
		err:   fmt.Errorf("%s: no autodisc directory", filepath.Join(dir, "autodisc")),
		hints: []string{fmt.Sprintf("build the tree first: discgen build -o %s", dir), "or give the built tree with -o DIR"},
	}
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

type resolveJSON struct {
	Path     string        `json:"path"`
	Chain    []levelJSON   `json:"chain"`
	Files    []fileJSON    `json:"files"`
	Warnings []warningJSON `json:"warnings"`
}

type levelJSON struct {
	Space string `json:"space"`
	Dir   string `json:"dir,omitempty"`
	Read  bool   `json:"read"`
	Note  string `json:"note,omitempty"`
	// The delegation that leads here; absent for the root. Only and
	// Except are null when the line has no such list: "only": [] is an
	// only-list of no file.
	Delegation string   `json:"delegation,omitempty"`
	Line       int      `json:"line,omitempty"`
	Only       []string `json:"only"`
	Except     []string `json:"except"`
	Granted    string   `json:"granted"`
	Files      []string `json:"files"`
}

type fileJSON struct {
	Name      string  `json:"name"`
	Authority *string `json:"authority"` // the governing level's space; null when none governs
	Defined   bool    `json:"defined"`
	Reason    string  `json:"reason,omitempty"`
}

type warningJSON struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func writeResolveJSON(w io.Writer, res *autodisc.Result, at func(string) string) error {
	out := resolveJSON{Path: res.Path, Chain: []levelJSON{}, Files: []fileJSON{}, Warnings: []warningJSON{}}
	for i, lv := range res.Chain {
		l := levelJSON{Space: lv.Space.String(), Dir: at(lv.Dir), Read: lv.Read, Note: lv.Note,
			Granted: lv.Granted.String(), Files: lv.Files}
		if l.Files == nil {
			l.Files = []string{}
		}
		if i > 0 {
			l.Delegation, l.Line = lv.Delegation.String(), lv.Line
			l.Only, l.Except = lv.Grant.Only, lv.Grant.Except
		}
		out.Chain = append(out.Chain, l)
	}
	for _, f := range res.Files {
		fj := fileJSON{Name: f.Name, Defined: f.Defined, Reason: f.Reason}
		if f.Level >= 0 {
			s := res.Chain[f.Level].Space.String()
			fj.Authority = &s
		}
		out.Files = append(out.Files, fj)
	}
	for _, d := range res.Warnings {
		out.Warnings = append(out.Warnings, warningJSON{File: at(d.File), Line: d.Line, Code: d.Code, Message: d.Message})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
