package report

import (
	_ "embed"
	"html/template"
	"io"
	"sync"
)

//go:embed page.html
var pageHTML string

//go:embed page.css
var pageCSS string

// page is parsed at first use, not when the package is initialised:
// every discgen command would pay for it.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page.html").Option("missingkey=error").Parse(pageHTML))
})

// Render writes the page as one HTML document.
func Render(w io.Writer, p *Page) error {
	return page().Execute(w, struct {
		*Page
		CSS template.CSS
	}{p, template.CSS(pageCSS)})
}
