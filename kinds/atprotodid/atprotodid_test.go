package atprotodid

import (
	"testing"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

func TestCheckDID(t *testing.T) {
	for _, c := range []struct {
		did string
		ok  bool
	}{
		{"did:plc:ewvi7nxzyoun6zhxrhs64oiz", true}, {"did:web:fict.org", true}, {"did:web:localhost%3A8080", false},
		{"did:web:a.fict.org%3A8443:u:alice", true}, {"did:plc:ewvi7nxzyoun6zhxrhs64oiz\n", false},
		{"did:plc:EWVI7NXZYOUN6ZHXRHS64OIZ", false}, {"did:key:z6Mk", false}, {"at://fict.org", false},
	} {
		if msg := CheckDID(c.did); (msg == "") != c.ok {
			t.Errorf("CheckDID(%q) = %q", c.did, msg)
		}
	}
	site := &manifest.Site{}
	if !(Kind{}).Import(site, []byte("did:plc:ewvi7nxzyoun6zhxrhs64oiz"), nil) {
		t.Fatal("a DID alone is not imported")
	}
	if got, ok := (Kind{}).Render(site, kit.Build{}); !ok || string(got) != "did:plc:ewvi7nxzyoun6zhxrhs64oiz" {
		t.Errorf("atproto-did: %q, %v", got, ok)
	}
}
