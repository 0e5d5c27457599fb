package publish

// hooks are what a test asks a build to call at points of its work: each
// build carries its own (Options.hooks), so that tests that set them run
// in parallel. A nil *hooks, and a nil field, call nothing.
type hooks struct {
	// stage is called as each tenant reaches a stage of its build
	// ("walk", "load", "render", "plan", "apply") with the tenant's
	// directory as messages show it, and as the site's own files are
	// built ("site", with the site's output directory).
	stage func(stage, dir string)
	// planSite runs before the site's tree is planned.
	planSite func(root string)
	// batch is called with each batch's size.
	batch func(n int)
	// listed is told how many entries each read of a directory of the
	// walk returned.
	listed func(dir string, n int)
	// walked runs between the walk that opened a tenant's directory and
	// the tenant's build.
	walked func(dir string)
	// read runs before a tenant's manifest is read.
	read func(dir string)
	// noRecordName leaves the record's name to output.
	noRecordName bool
}

func (h *hooks) atStage(stage, dir string) {
	if h != nil && h.stage != nil {
		h.stage(stage, dir)
	}
}

func (h *hooks) atPlanSite(root string) {
	if h != nil && h.planSite != nil {
		h.planSite(root)
	}
}

func (h *hooks) atBatch(n int) {
	if h != nil && h.batch != nil {
		h.batch(n)
	}
}

func (h *hooks) atListed(dir string, n int) {
	if h != nil && h.listed != nil {
		h.listed(dir, n)
	}
}

func (h *hooks) atWalked(dir string) {
	if h != nil && h.walked != nil {
		h.walked(dir)
	}
}

func (h *hooks) atRead(dir string) {
	if h != nil && h.read != nil {
		h.read(dir)
	}
}
