// Package confined is discgen's only way to the filesystem: it opens
// directories and files without following symlinks and without leaving
// the directory they were reached from.
package confined
