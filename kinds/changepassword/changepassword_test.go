package changepassword

import "testing"

func TestCheckTarget(t *testing.T) {
	for _, c := range []struct {
		to       string
		ok, warn bool
	}{
		{"/account/password", true, false}, {"https://accounts.fict.org/pw", true, false}, {"http://fict.org/pw", false, true},
		{"//evil.org/", false, false}, {"account", false, false}, {"javascript:alert(1)", false, false},
		{"/.well-known/change-password", false, false}, {"/a b", false, false}, {"/a$1", false, false},
		{"/{path}", false, false}, {"/a\"b", false, false}, {"/pw?next=%2F#top", true, false}, {"/é", false, false},
	} {
		msg, warn := CheckTarget(c.to)
		if (msg == "") != c.ok || warn != c.warn {
			t.Errorf("CheckTarget(%q) = %q, %v", c.to, msg, warn)
		}
	}
}
