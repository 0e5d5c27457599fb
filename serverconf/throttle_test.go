package serverconf

import (
	"bytes"
	"strings"
	"testing"
)

// throttleFixture throttles GPTBot and ClaudeBot at 1/m with a burst of 3,
// and "Meta ExternalAgent" (a name of two words) at 30/s with none.
func throttleFixture() *Throttle {
	return &Throttle{ID: "example_org_test", Classes: []ThrottleClass{
		{Names: []string{"GPTBot", "ClaudeBot"}, Rate: Rate{N: 1, PerMinute: true}, Burst: 3},
		{Names: []string{"Meta ExternalAgent"}, Rate: Rate{N: 30}, Burst: 0},
	}}
}

// TestParseRate reads N/s and N/m, and refuses the rest with what to write.
func TestParseRate(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Rate
		err  string
	}{
		{"1/s", Rate{N: 1}, ""},
		{"30/m", Rate{N: 30, PerMinute: true}, ""},
		{"100000/s", Rate{N: 100000}, ""},
		{"0/s", Rate{}, "at least 1"},
		{"100001/s", Rate{}, "at most 100000"},
		{"1r/s", Rate{}, "N/s or N/m"},
		{"1/h", Rate{}, "N/s or N/m"},
		{"1", Rate{}, "N/s or N/m"},
		{"/s", Rate{}, "N/s or N/m"},
		{"-1/s", Rate{}, "N/s or N/m"},
		{"+1/s", Rate{}, "N/s or N/m"},
		{" 1/s", Rate{}, "N/s or N/m"},
		{"01/s", Rate{}, "N/s or N/m"},
		{"99999999999999999999/s", Rate{}, "at most 100000"},
	} {
		got, err := ParseRate(c.in)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("ParseRate(%q) = %v, %v; want %v", c.in, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseRate(%q) error %v, want one saying %q", c.in, err, c.err)
		}
	}
	if s := (Rate{N: 30, PerMinute: true}).String(); s != "30/m" {
		t.Errorf("String %q", s)
	}
}

// TestThrottleNginx: the zone and the maps go in the http-level file
// (limit_req_zone and map are not allowed in a server block), keyed by the
// crawler's name through the same User-Agent reading as enforce, empty for
// everyone else and for /robots.txt; discgen.conf gets limit_req and
// limit_req_status only. Other kinds are unchanged, and a second render
// gives the same bytes.
func TestThrottleNginx(t *testing.T) {
	rendered, _ := accessTree()
	kinds := []Kind{Headers, Htaccess, Nginx, Caddy}
	a := Access{Throttle: throttleFixture()}
	public, separate, err := RenderAccess(rendered, kinds, a)
	if err != nil {
		t.Fatal(err)
	}
	plainPublic, plainSep, _ := RenderAccess(rendered, kinds, Access{})
	if !bytes.Equal(public[HeadersFile].Data, plainPublic[HeadersFile].Data) || !bytes.Equal(public[HtaccessFile].Data, plainPublic[HtaccessFile].Data) ||
		!bytes.Equal(separate[CaddyFile].Data, plainSep[CaddyFile].Data) {
		t.Error("throttle changed _headers, .htaccess or discgen.caddy")
	}
	if _, ok := plainSep[NginxThrottleFile]; ok {
		t.Errorf("%s written without throttle", NginxThrottleFile)
	}
	http := string(separate[NginxThrottleFile].Data)
	var gptMaps, metaMaps strings.Builder
	nginxUAMap(&gptMaps, "$discgen_example_org_test_t1_1_ua", "$discgen_example_org_test_t1_1_claims", "GPTBot")
	nginxUAMap(&metaMaps, "$discgen_example_org_test_t2_1_ua", "$discgen_example_org_test_t2_1_claims", "Meta ExternalAgent")
	for _, want := range []string{
		gptMaps.String(), metaMaps.String(),
		"map \"$discgen_example_org_test_t1_1_claims$discgen_example_org_test_t1_2_claims\" $discgen_example_org_test_t1_name {\n    default \"\";\n    \"~^1\" \"GPTBot\";\n    \"~^01\" \"ClaudeBot\";\n}\n",
		"map $uri $discgen_example_org_test_t1 {\n    default $discgen_example_org_test_t1_name;\n    /robots.txt \"\";\n}\n",
		"limit_req_zone $discgen_example_org_test_t1 zone=discgen_example_org_test_t1:1m rate=1r/m;\n",
		"\"~^1\" \"Meta%20ExternalAgent\";\n",
		"limit_req_zone $discgen_example_org_test_t2 zone=discgen_example_org_test_t2:1m rate=30r/s;\n",
	} {
		if !strings.Contains(http, want) {
			t.Errorf("%s lacks %q:\n%s", NginxThrottleFile, want, http)
		}
	}
	conf := string(separate[NginxFile].Data)
	for _, want := range []string{
		"limit_req zone=discgen_example_org_test_t1 burst=3 nodelay;\n",
		"limit_req zone=discgen_example_org_test_t2 nodelay;\n",
		"limit_req_status 429;\n",
	} {
		if !strings.Contains(conf, want) {
			t.Errorf("%s lacks %q:\n%s", NginxFile, want, conf)
		}
	}
	if strings.Count(conf, "limit_req_status") != 1 || strings.Contains(conf, "limit_req_zone") || strings.Contains(conf, "map ") {
		t.Errorf("%s holds http-level lines or two limit_req_status:\n%s", NginxFile, conf)
	}
	_, again, _ := RenderAccess(rendered, kinds, a)
	if !bytes.Equal(again[NginxThrottleFile].Data, separate[NginxThrottleFile].Data) || !bytes.Equal(again[NginxFile].Data, separate[NginxFile].Data) {
		t.Error("a second render differs")
	}
}

// TestThrottleCannot names the format in the reason each kind but nginx
// cannot throttle.
func TestThrottleCannot(t *testing.T) {
	for k, want := range map[Kind]string{Headers: "_headers", Htaccess: ".htaccess", Caddy: "Caddy"} {
		if got := ThrottleCannot(k); !strings.Contains(got, want) || !strings.Contains(got, "cannot throttle") {
			t.Errorf("%s: %q", k, got)
		}
	}
	if got := ThrottleCannot(Nginx); got != "" {
		t.Errorf("nginx: %q", got)
	}
}
