package manifest

// Usage is a manifest's usage preferences (the site's "usage" and a
// group's "agents[].usage"): what may be done with what crawlers fetch,
// written to robots.txt as Content-Usage and Content-Signal lines and, with
// --server, as the Content-Usage HTTP header. Each preference is "yes",
// "no" or absent (not stated).
type Usage struct {
	TrainAI string `json:"train_ai,omitempty"`
	Search  string `json:"search,omitempty"`
	AIInput string `json:"ai_input,omitempty"`
	// Use is Content-Signal's "use" key: how content may be used where a
	// use is allowed, "immediate", "reference" or "full" (Cloudflare's
	// content-use levels); written as Content-Signal only.
	Use   string      `json:"use,omitempty"`
	Paths []UsagePath `json:"paths,omitempty"`
	// Formats chooses the robots.txt lines: "content-usage",
	// "content-signal"; both when absent.
	Formats []string `json:"formats,omitempty"`
}

// UsagePath is a path-scoped preference: it applies, over the group's, to
// the URLs its path matches (longest match, as Allow and Disallow).
type UsagePath struct {
	Path    string `json:"path"`
	TrainAI string `json:"train_ai,omitempty"`
	Search  string `json:"search,omitempty"`
	AIInput string `json:"ai_input,omitempty"`
}

// UsageExpect is the preferences an expect entry asserts.
type UsageExpect struct {
	TrainAI string `json:"train_ai,omitempty"`
	Search  string `json:"search,omitempty"`
	AIInput string `json:"ai_input,omitempty"`
}
