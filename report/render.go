package report

import (
	_ "embed"
	"html/template"
	"io"
)

//go:embed page.html
var pageHTML string

//go:embed page.css
var pageCSS string

var page = template.Must(template.New("page.html").Option("missingkey=error").Parse(pageHTML))

// Render writes the page as one HTML document.
func Render(w io.Writer, p *Page) error {
	return page.Execute(w, struct {
		*Page
		CSS template.CSS
	}{p, template.CSS(pageCSS)})
}
