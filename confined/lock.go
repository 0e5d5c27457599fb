package confined

import (
	"os"
	"time"
)

// WaitLock calls try (TryLock or TryLockShared) on f until it takes the
// lock, fails, or wait has passed (busy), sleeping a little longer each
// time, up to 100 ms.
func WaitLock(f *os.File, try func(*os.File) (bool, error), wait time.Duration) (busy bool, err error) {
	deadline := time.Now().Add(wait)
	for delay := time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		busy, err := try(f)
		if err != nil || !busy || time.Now().After(deadline) {
			return busy, err
		}
		time.Sleep(delay)
	}
}
