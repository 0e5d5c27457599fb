package autodisc

import (
	"encoding/json"
	"fmt"
	"io"
)

// The two renderings of a Result, as discgen resolve prints them.

// WriteText writes the chain of authorities, root first, then each file
// and the space that governs it:
//
//	authority / (public/autodisc)
//	authority /~alice/ (public/~alice/autodisc)
//	description.txt  /~alice/
//	robots.txt  /  (excepted by /)
//	icons.txt  undefined (not delegated: only-list of /~alice/)
//
// at maps a directory relative to the tree to the name shown.
func (res *Result) WriteText(w io.Writer, at func(string) string) error {
	var err error
	pr := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, args...)
		}
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
		pr("authority %s (%s)\n", lv.Space, where)
	}
	for _, f := range res.Files {
		switch {
		case !f.Defined:
			pr("%s  undefined (%s)\n", f.Name, f.Reason)
		case f.Reason != "":
			pr("%s  %s  (%s)\n", f.Name, res.Chain[f.Level].Space, f.Reason)
		default:
			pr("%s  %s\n", f.Name, res.Chain[f.Level].Space)
		}
	}
	return err
}

// JSON is a Result as discgen resolve --format json writes it.
type JSON struct {
	Path     string        `json:"path"`
	Chain    []JSONLevel   `json:"chain"`
	Files    []JSONFile    `json:"files"`
	Warnings []JSONWarning `json:"warnings"`
}

// JSONLevel is a level of the chain.
type JSONLevel struct {
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

// JSONFile is a file and the space that governs it.
type JSONFile struct {
	Name      string  `json:"name"`
	Authority *string `json:"authority"` // the governing level's space; null when none governs
	Defined   bool    `json:"defined"`
	Reason    string  `json:"reason,omitempty"`
}

// JSONWarning is a warning about a file read.
type JSONWarning struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// WriteJSON writes the result as one indented JSON document, the form of
// discgen resolve --format json; at maps a directory relative to the tree
// to the name shown ("" stays "").
func (res *Result) WriteJSON(w io.Writer, at func(string) string) error {
	out := JSON{Path: res.Path, Chain: []JSONLevel{}, Files: []JSONFile{}, Warnings: []JSONWarning{}}
	for i, lv := range res.Chain {
		l := JSONLevel{Space: lv.Space.String(), Dir: at(lv.Dir), Read: lv.Read, Note: lv.Note,
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
		fj := JSONFile{Name: f.Name, Defined: f.Defined, Reason: f.Reason}
		if f.Level >= 0 {
			s := res.Chain[f.Level].Space.String()
			fj.Authority = &s
		}
		out.Files = append(out.Files, fj)
	}
	for _, d := range res.Warnings {
		out.Warnings = append(out.Warnings, JSONWarning{File: at(d.File), Line: d.Line, Code: d.Code, Message: d.Message})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
