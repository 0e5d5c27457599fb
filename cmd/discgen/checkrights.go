package main

import (
	"fmt"
	"github.com/discgen/discgen/lint"
	"io"

	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/tdmrep"
)

// tdmrepBytes reads check's --tdmrep file ("" none): nil when none. What
// a reader of the file drops or doubts (tdmrep.Parse's problems) is
// warned at its line and column; the rest is read.
func tdmrepBytes(file string, stderr io.Writer) ([]byte, error) {
	if file == "" {
		return nil, nil
	}
	data, err := limited.ReadFile(file, lint.MaxFile)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", file, err)
	}
	_, problems := tdmrep.Parse(data)
	for _, p := range problems {
		fmt.Fprintf(stderr, "discgen: warning: %s:%d:%d: %s\n", file, p.Line, p.Col, p.Message)
	}
	return data, nil
}
