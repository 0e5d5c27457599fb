package record

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/discgen/discgen/internal/statedir"
)

// Format 1 of the ownership record, which named its root by the root's
// absolute path and was kept where that path's SHA-256 says:
//
//	STATEDIR/outputs/ab/cd/abcd...ef.rec
//
//	discgen output record 1
//	root /abs/path/public
//	state complete
//	f <sha256 of the bytes> autodisc/index.txt
//
// Looked for only when STATEDIR/outputs exists (Format1In), and only in
// a build's own state directory, never in a root's own (which is newer);
// read when no format 2 record exists, used if its root line is the root
// being built, and replaced by a format 2 record at the next Apply. The
// temporary files of an interrupted format 1 build are left for the user
// to remove (format 1 named none).
//
// This file is all there is of format 1 but for a few lines elsewhere.
// Deleting it, once no state directory holds an outputs/ directory,
// takes: this file; in record.go the magic1 and "n == 2 && v1" cases of
// ParseMax (and its root result); and in package output its
// record_format1.go and record_format1_test.go, loadRecord's call of
// loadRecord1, and the Changes field v1 (plan.go) and its readers in
// apply.go (Apply keeps and removes the format 1 record).

// magic1 is the first line of a format 1 record.
const magic1 = "discgen output record 1"

// format1Root is the root a format 1 record's second line names, or why
// that line is not one.
func format1Root(line string) (root, msg string) {
	root, ok := strings.CutPrefix(line, "root ")
	if !ok {
		return "", "missing root line"
	}
	return root, ""
}

// Base1 is where format 1 kept the record of the absolute root path
// abs, plus ".rec".
func Base1(abs string) string {
	h := sha256.Sum256([]byte(abs))
	x := hex.EncodeToString(h[:])
	return "outputs/" + x[:2] + "/" + x[2:4] + "/" + x
}

// Format1In reports whether stateDir holds format 1 records (an outputs/
// directory): one stat, asked only for a root without a format 2 record,
// so that a state directory without any costs a stat per new root, not
// an open. Nothing is remembered past the call: a record restored into
// the directory meanwhile is found.
func Format1In(stateDir string) bool {
	_, err := statedir.Lstat(filepath.Join(stateDir, "outputs"))
	return !errors.Is(err, fs.ErrNotExist)
}
