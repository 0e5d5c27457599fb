// Package editdist measures how far apart two short words are, for the
// "did you mean" hints of unknown manifest keys and robots.txt fields.
package editdist

import (
	"slices"
	"strings"
)

// Levenshtein is the number of single-byte insertions, deletions and
// substitutions that turn a into b.
func Levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Transposed is Levenshtein with the swap of two adjacent bytes counted as
// one edit (the optimal string alignment distance): "tpye" is one edit
// from "type", as a typist sees it, not two.
func Transposed(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// Closest returns the word of known that s most likely misspells, or "":
// the nearest (by Transposed) within 2 edits and less than half that
// word's length, compared case-insensitively. The same words joined by
// "_" or "-", in any order (ai_train for train_ai), count as one edit.
// Ties go to the earliest in known.
func Closest(s string, known []string) string {
	best, bestD := "", 3
	s = strings.ToLower(s)
	words := sortedWords(s)
	for _, k := range known {
		k0 := strings.ToLower(k)
		d := Transposed(s, k0)
		if d > 1 && words != "" && words == sortedWords(k0) {
			d = 1
		}
		if d < bestD && 2*d < len(k) {
			best, bestD = k, d
		}
	}
	return best
}

// sortedWords returns the words of s split at "_" and "-", sorted and
// joined by a space, or "" when s is one word.
func sortedWords(s string) string {
	w := strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' })
	if len(w) < 2 {
		return ""
	}
	slices.Sort(w)
	return strings.Join(w, " ")
}
