package livetest

import (
	"net"
	"strconv"
	"testing"
)

// TestFreePort: the ports handed out lie below the kernel's ephemeral
// range, where the tests' outgoing connections take theirs, and a server
// can listen on each on every address.
func TestFreePort(t *testing.T) {
	low := ephemeralLow()
	for range 50 {
		p := FreePort(t)
		if p < firstPort || p >= low {
			t.Fatalf("port %d outside [%d, %d)", p, firstPort, low)
		}
		l, err := net.Listen("tcp", net.JoinHostPort("", strconv.Itoa(p)))
		if err != nil {
			t.Fatalf("port %d: %v", p, err)
		}
		l.Close()
	}
}
