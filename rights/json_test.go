package rights

import (
	"encoding/json"
	"testing"
)

func TestJSON(t *testing.T) {
	if j := ReadRights([]byte("User-agent: *\nDisallow: /x\n"), nil, nil, "/a").JSON(); j != nil {
		t.Errorf("nothing said, JSON %+v; want nil", j)
	}
	robotsTxt := []byte("User-agent: *\nDisallow: /x\n\nLicense: https://example.org/license.xml\n")
	tdm := []byte(`[{"location": "/open/*", "tdm-reservation": 0}, {"location": "/*", "tdm-reservation": 1, "tdm-policy": "https://example.org/policy.json"}]`)
	j := ReadRights(robotsTxt, tdm, nil, "/a/b").JSON()
	if j == nil {
		t.Fatal("JSON is nil")
	}
	b, _ := json.Marshal(j)
	want := `{"license":"https://example.org/license.xml","license_line":4,"tdm_reservation":1,"tdm_policy":"https://example.org/policy.json","tdm_location":"/*","tdm_line":1}`
	if string(b) != want {
		t.Errorf("JSON\n%s\nwant\n%s", b, want)
	}
	if j := ReadRights(robotsTxt, tdm, nil, "/open/x").JSON(); j == nil || j.Reservation == nil || *j.Reservation != 0 {
		t.Errorf("under /open/: %+v", j)
	}
}
