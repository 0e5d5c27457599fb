package publish

import (
	"encoding/json"
	"os"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/output"
)

// A tenant refused for what its manifest says is refused again, with the
// same reasons, until the manifest (or its delegation, the site's URL or
// discgen) changes: what the tenant key covers. Its verdict is kept under
// that key (output.SaveRefusal), so a refused manifest costs the next
// builds a few stats and one small read, as an unchanged one does, and
// not its checks again: one with 40,000 names took 97 s on every build.
// The unit still ends refused, with its diagnostics, and the build exits 1.

// savedDiag is a diagnostic as a refusal cache keeps it.
type savedDiag struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Warning bool   `json:"warning,omitempty"`
	Path    string `json:"path,omitempty"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
}

// refusedBefore returns the diagnostics kept for the tenant's refusal
// under its current key, if any. In Write mode it removes a verdict kept
// under another key, which can never match again.
func (p *pipeline) refusedBefore(j *job, root *os.Root) (diag.List, bool) {
	if root == nil {
		return nil, false
	}
	opt := p.outputOptions(j, root)
	data, ok, stale := output.Refusal(j.show, opt)
	if !ok {
		if stale && p.opt.Mode == Write {
			output.ClearRefusal(j.show, opt)
		}
		return nil, false
	}
	var saved []savedDiag
	if json.Unmarshal(data, &saved) != nil || len(saved) == 0 {
		return nil, false
	}
	list := make(diag.List, len(saved))
	for i, s := range saved {
		sev := diag.Error
		if s.Warning {
			sev = diag.Warning
		}
		list[i] = diag.Diagnostic{Pos: diag.Pos{File: s.File, Line: s.Line, Col: s.Col}, Severity: sev, Path: s.Path, Code: s.Code, Message: s.Message}
	}
	return list, list.HasErrors()
}

// rememberRefusal keeps the reasons of a tenant refused for what its
// manifest says, in Write mode (Check and DryRun write nothing).
func (p *pipeline) rememberRefusal(j *job, root *os.Root, list diag.List) {
	if root == nil || p.opt.Mode != Write || !list.HasErrors() {
		return
	}
	saved := make([]savedDiag, len(list))
	for i, d := range list {
		saved[i] = savedDiag{File: d.File, Line: d.Line, Col: d.Col, Warning: d.Severity == diag.Warning, Path: d.Path, Code: d.Code, Message: d.Message}
	}
	if data, err := json.Marshal(saved); err == nil {
		output.SaveRefusal(j.show, p.outputOptions(j, root), data)
	}
}
