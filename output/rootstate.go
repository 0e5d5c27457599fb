package output

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A root's own state directory. A build of many roots owned by different
// users (a shared host's tenants) keeps each root's record, stat cache
// and journals in a state directory of its own, below the build's:
//
//	STATEDIR/roots/ab/cd/abcd...ef/records/12/34/1234...89.rec
//	STATEDIR/roots/ab/cd/abcd...ef/journal/<random>.jnl
//
// named by the SHA-256 of the root's record name. The build run by root
// creates every directory on the way, owned by root, and gives only the
// two directories that hold files, records/12/34 and journal, to the
// root's owner, mode 0700. The owner's own build (the control panel's
// --tenant build, run as that user) can then write its record and its
// journals, and no other user can read, replace or remove them: a user
// can neither rename nor replace a directory in a directory of root's,
// so the only input an owner controls is the files in those two
// directories, which every build of that root opens without following a
// symlink, never waiting on a FIFO, bounded in size, and replaces rather
// than writes through (see readStateFile and writeStateFile). What such a
// file can make a build do is confined to that root: a record or journal
// names paths inside the root, and every path is reached through the
// root, opened confined.

// rootsDir is the directory of the roots' own state directories.
const rootsDir = "roots"

// RootStateDir returns the state directory of its own, below stateDir,
// of the root whose record is named record.
func RootStateDir(stateDir, record string) string {
	h := sha256.Sum256([]byte(record))
	x := hex.EncodeToString(h[:])
	return filepath.Join(stateDir, rootsDir, x[:2], x[2:4], x)
}

// PrepareRootState makes dir (from RootStateDir) ready for the record
// named record: it creates every missing directory, and gives the two
// that hold files (the record's and the journal directory) to owner, mode
// 0700, when owner is set. Run by a user who may not create them (the
// owner, before a build run by root made them), it returns an error
// satisfying errors.Is(err, fs.ErrPermission).
func PrepareRootState(dir, record string, owner *Owner) error {
	base := filepath.Dir(filepath.Join(dir, filepath.FromSlash(recordBase(record))))
	leaves := []string{base, filepath.Join(dir, journalDir)}
	mode := os.FileMode(0o755)
	if owner != nil {
		mode = 0o700
	}
	for _, leaf := range leaves {
		fi, err := os.Lstat(leaf)
		if errors.Is(err, fs.ErrNotExist) {
			if err = mkdirTree(filepath.Dir(leaf), nil); err != nil && !errors.Is(err, fs.ErrExist) {
				return stateDenied(dir, err)
			}
			if err = os.Mkdir(leaf, mode); err != nil && !errors.Is(err, fs.ErrExist) {
				return stateDenied(dir, err)
			}
			fi, err = os.Lstat(leaf)
		}
		if err != nil {
			return fmt.Errorf("state directory: %w", err)
		}
		if !fi.IsDir() {
			return fmt.Errorf("state directory: %s is not a directory", leaf)
		}
		if owner == nil {
			continue
		}
		if o, ok := ownerOf(fi); !ok || o != *owner || fi.Mode().Perm() != mode {
			if err := os.Lchown(leaf, owner.UID, owner.GID); err != nil {
				return stateDenied(dir, err)
			}
			if err := os.Chmod(leaf, mode); err != nil {
				return stateDenied(dir, err)
			}
		}
	}
	return nil
}

// stateDenied names the root's state directory this process may not
// create or give to its owner.
func stateDenied(dir string, err error) error {
	return fmt.Errorf("state directory: %s: %w", dir, unwrapPath(err))
}

// maxRootState bounds what is read from a root's own state directory, all
// journals together and each record or stat cache: its owner may fill it.
// A tenant's record is a few lines for each of its outputs.
const maxRootState = 16 << 20

// stateLimit is limit, or maxRootState for a root's own state directory
// (a path RootStateDir returns).
func stateLimit(stateDir string, limit int64) int64 {
	h := filepath.Base(stateDir)
	cd := filepath.Dir(stateDir)
	ab := filepath.Dir(cd)
	if len(h) == 64 && filepath.Base(filepath.Dir(ab)) == rootsDir && filepath.Base(ab) == h[:2] && filepath.Base(cd) == h[2:4] {
		return min(limit, maxRootState)
	}
	return limit
}
