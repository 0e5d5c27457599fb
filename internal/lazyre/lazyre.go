// Package lazyre holds regular expressions that are compiled on first
// use rather than when their package is initialised: a package-level
// regexp.MustCompile costs every discgen command, `discgen version`
// included, though most commands never match most of them.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled when first matched. A bad
// expression panics then, as regexp.MustCompile would at start-up; each
// package's tests match its expressions, so that none ships broken.
type Regexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// New returns the expression src, not yet compiled.
func New(src string) *Regexp { return &Regexp{src: src} }

// Compiled returns the compiled expression.
func (r *Regexp) Compiled() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.src) })
	return r.re
}

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.Compiled().MatchString(s) }

// Match is regexp.Regexp.Match.
func (r *Regexp) Match(b []byte) bool { return r.Compiled().Match(b) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Compiled().FindStringSubmatch(s) }

// String returns the source text of the expression.
func (r *Regexp) String() string { return r.src }
