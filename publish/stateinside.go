package publish

import (
	"fmt"
	"path/filepath"
	"strings"
)

// stateInside says why a tenant whose directory holds the state
// directory is refused, "" when it does not. output.Plan refuses such a
// root when it opens it by path (the site's output); a tenant's
// directory comes to it open (Options.Dir), so the check is made here,
// from the directory's absolute path (the glob's prefix and what the
// walk found below it), as lexically as output's. Its files would be
// published beside the records, which the tenant owning the directory
// could rewrite. A render writes no state and is not refused.
func (p *pipeline) stateInside(j *job) string {
	if p.stateAbs == "" || p.opt.Mode == Render {
		return ""
	}
	dir := filepath.Join(j.d.pat.prefix, filepath.FromSlash(j.rel))
	rel, err := filepath.Rel(dir, p.stateAbs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return fmt.Sprintf("the state directory %s lies inside %s, where it would be published and whoever owns the directory could rewrite the records of every output root; keep --state outside every tenant's directory", p.opt.StateDir, j.show)
}
