package verify

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
	"text/tabwriter"
)

// Failed counts the results with problems.
func Failed(rs []Result) int {
	n := 0
	for i := range rs {
		if !rs[i].OK() {
			n++
		}
	}
	return n
}

// Write writes the results in format: "json" (WriteJSON), "github"
// (WriteGitHub) or "text" (WriteText, for anything else).
func Write(w io.Writer, format string, rs []Result) {
	switch format {
	case "json":
		WriteJSON(w, rs)
	case "github":
		WriteGitHub(w, rs)
	default:
		WriteText(w, rs)
	}
}

// IsOrigin reports whether s is an origin: http or https, a host, and no
// path but "/".
func IsOrigin(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && (u.Path == "" || u.Path == "/")
}

// WriteText writes a table, a line per file, then one line per problem of
// a failing file.
func WriteText(w io.Writer, rs []Result) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RESULT\tPATH\tSTATUS\tCONTENT-TYPE\tBYTES\tREDIRECTS")
	for _, r := range rs {
		word := "ok"
		if !r.OK() {
			word = "FAIL"
		}
		status := "-"
		if r.Status != 0 {
			status = fmt.Sprint(r.Status)
		}
		ct := r.ContentType
		if ct == "" {
			ct = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\n", word, r.Path, status, ct, r.Size, r.Redirects)
	}
	tw.Flush()
	for _, r := range rs {
		for _, p := range r.Problems {
			fmt.Fprintf(w, "%s: %s\n", r.Path, p)
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "%s: note: %s\n", r.Path, n)
		}
	}
	fmt.Fprintf(w, "%d files checked, %d failed\n", len(rs), Failed(rs))
}

// WriteJSON writes one document: every result and whether all passed.
func WriteJSON(w io.Writer, rs []Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if rs == nil {
		rs = []Result{}
	}
	return enc.Encode(struct {
		OK    bool     `json:"ok"`
		Files []Result `json:"files"`
	}{Failed(rs) == 0, rs})
}

// WriteGitHub writes a workflow error command for each problem and a
// notice for each note, which GitHub Actions shows as annotations.
func WriteGitHub(w io.Writer, rs []Result) {
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	for _, r := range rs {
		for _, p := range r.Problems {
			fmt.Fprintf(w, "::error title=discgen verify::%s\n", esc.Replace(r.URL+": "+p))
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "::notice title=discgen verify::%s\n", esc.Replace(r.URL+": "+n))
		}
	}
}
