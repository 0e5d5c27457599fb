package autodisc

import (
	"fmt"
	"net/url"
	"strings"
)

// URLPath takes the URL path a consumer resolves (Resolve) from what a
// user gives: a path beginning with "/", as it is, or the escaped path of
// an absolute URL ("/" when it has none).
func URLPath(arg string) (string, error) {
	if strings.HasPrefix(arg, "/") {
		return arg, nil
	}
	if u, err := url.Parse(arg); err == nil && u.Scheme != "" && u.Host != "" {
		if p := u.EscapedPath(); p != "" {
			return p, nil
		}
		return "/", nil
	}
	return "", fmt.Errorf("%q is not a URL path: give one beginning with \"/\", or an absolute URL", arg)
}
