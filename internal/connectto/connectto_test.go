package connectto

import (
	"crypto/tls"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]string{
		"www.example.org:443:10.0.0.5:8443": "www.example.org:443:10.0.0.5:8443",
		"::10.0.0.5:":                       "::10.0.0.5:",
		"www.example.org:443:[::1]:443":     "www.example.org:443:[::1]:443",
		"[2001:db8::1]:80:example.net:8080": "[2001:db8::1]:80:example.net:8080",
	} {
		r, err := ParseConnectTo(in)
		if err != nil {
			t.Errorf("ParseConnectTo(%q): %v", in, err)
			continue
		}
		if r.String() != want {
			t.Errorf("ParseConnectTo(%q) = %s, want %s", in, r, want)
		}
	}
	for _, bad := range []string{"", "a:b", "a:443:b", "a:443:b:0", "a:x:b:443", "a:443:b c:443", "a:443:[::1:443", "a:443:[::1]x:443", "a:443:b:443:5"} {
		if r, err := ParseConnectTo(bad); err == nil {
			t.Errorf("ParseConnectTo(%q) = %s, want an error", bad, r)
		}
	}
	for in, want := range map[string]string{
		"www.example.org:443:10.0.0.5":        "www.example.org:443:10.0.0.5:443",
		"www.example.org:80:[::1]":            "www.example.org:80:[::1]:80",
		"*:443:10.0.0.5,10.0.0.6":             ":443:10.0.0.5:443",
		"www.example.org:443:2001:db8::5":     "",
		"www.example.org:443:www.example.net": "",
		"www.example.org::10.0.0.5":           "",
		"www.example.org:443:":                "",
	} {
		r, err := ParseResolve(in)
		switch {
		case want == "" && err == nil:
			t.Errorf("ParseResolve(%q) = %s, want an error", in, r)
		case want != "" && err != nil:
			t.Errorf("ParseResolve(%q): %v", in, err)
		case want != "" && r.String() != want:
			t.Errorf("ParseResolve(%q) = %s, want %s", in, r, want)
		}
	}
}

func TestTarget(t *testing.T) {
	rules := []Rule{
		{Host: "www.example.org", Port: "443", ToHost: "10.0.0.5"},
		{Port: "80", ToPort: "8080"},
	}
	for in, want := range map[string]string{
		"www.example.org:443": "10.0.0.5:443",
		"WWW.EXAMPLE.ORG:443": "10.0.0.5:443",
		"www.example.org:80":  "www.example.org:8080",
		"other.example:443":   "other.example:443",
		"[::1]:80":            "[::1]:8080",
	} {
		if got := Target(rules, in); got != want {
			t.Errorf("Target(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestClientKeepsHostAndName connects to a TLS server on a loopback port
// for https://example.com/: the request must reach it with Host
// example.com, and the certificate must be checked for example.com (the
// test server's certificate names it), so a rule changes where the
// connection goes and nothing else.
func TestClientKeepsHostAndName(t *testing.T) {
	var gotHost, gotSNI string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotHost, gotSNI = r.Host, r.TLS.ServerName
		io.WriteString(w, "ok")
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake below
	srv.StartTLS()
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())

	c := Client(srv.Client(), []Rule{{Host: "example.com", Port: "443", ToHost: "127.0.0.1", ToPort: port}})
	resp, err := c.Get("https://example.com/x")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" || gotHost != "example.com" || gotSNI != "example.com" {
		t.Errorf("body %q, Host %q, server name %q; want ok, example.com, example.com", body, gotHost, gotSNI)
	}

	// A name the certificate does not hold fails its check, as it would
	// without the rule.
	c = Client(srv.Client(), []Rule{{Host: "www.example.org", ToHost: "127.0.0.1", ToPort: port}})
	if resp, err := c.Get("https://www.example.org/"); err == nil {
		resp.Body.Close()
		t.Error("a certificate for example.com was accepted for www.example.org")
	}

	// Without a rule, the client is the one given.
	base := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{}}}
	if Client(base, nil) != base {
		t.Error("Client with no rules is not the client given")
	}
}
