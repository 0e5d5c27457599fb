//go:build !unix

package limited

// Elsewhere, opening never blocks on a FIFO and O_NOFOLLOW does not exist;
// the fstat check still refuses what is not a regular file.
const (
	nonblock = 0
	nofollow = 0
)

func isLoop(error) bool { return false }
