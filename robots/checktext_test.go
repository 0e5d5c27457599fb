package robots

import (
	"bytes"
	"testing"
)

// A check line as discgen check prints it: the verdict, the agent, the URL
// and the deciding rule; where the 1996 draft reads otherwise, it says so.
func TestCheckLineWriteText(t *testing.T) {
	f := Parse([]byte("User-agent: *\nDisallow: /x\nAllow: /x/y\n"))
	for url, want := range map[string]string{
		"/x":   "DISALLOWED somebot /x (line 2: Disallow: /x)\n",
		"/x/y": "ALLOWED somebot /x/y (line 3: Allow: /x/y); the 1996 draft reads DISALLOWED (line 2: Disallow: /x)\n",
		"/z":   "ALLOWED somebot /z (no rule matches)\n",
	} {
		var b bytes.Buffer
		f.CheckLine("somebot", url).WriteText(&b)
		if b.String() != want {
			t.Errorf("%s: %q, want %q", url, b.String(), want)
		}
	}
}
