package agentcard

import (
	"path"
	"testing"

	"github.com/discgen/discgen/kinds/kit"
)

// BenchmarkShippedCompile is what a build that checks an agent card pays
// once for each A2A version it meets: compiling the embedded, trimmed
// schema (docs/semantics.md gives the figures).
func BenchmarkShippedCompile(b *testing.B) {
	for _, name := range []string{A2AAgentCardV03, A2AAgentCardV10} {
		info := shippedSchemas[name]
		data, err := shipped.ReadFile(info.file)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := kit.CompileShipped(path.Base(info.full), data, info.ref); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
