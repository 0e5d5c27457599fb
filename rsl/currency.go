package rsl

import (
	"bufio"
	"bytes"
	_ "embed"
	"strings"
	"sync"
)

// iso4217 is a dated copy of the ISO 4217 list of current currencies
// (iso4217.txt: its source and publication date in its opening comment).
//
//go:embed iso4217.txt
var iso4217 []byte

// CurrencyListDate returns the publication date of the ISO 4217 list
// Check reads currencies against.
func CurrencyListDate() string { return currencyList().published }

// Currencies returns the alphabetic codes of the shipped ISO 4217 list,
// each with its name.
func Currencies() map[string]string { return currencyList().names }

type currencies struct {
	published string
	names     map[string]string
}

var currencyList = sync.OnceValue(func() currencies {
	c := currencies{names: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(iso4217))
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "# published: "); ok {
			c.published = v
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, " ", 3)
		if len(f) == 3 {
			c.names[f[0]] = f[2]
		}
	}
	return c
})

// isCurrencyCode reports whether s has the form of an ISO 4217
// alphabetic code: three capital letters.
func isCurrencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := 0; i < 3; i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}
