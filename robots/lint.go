package robots

// Lint is a placeholder until lint.go lands.
func Lint(data []byte) []Finding { return Parse(data).Findings }
