package serverconf

import "github.com/discgen/discgen/tree"

// ContentType returns the Content-Type every format here makes the server
// send for the file at tree path p of t (a symbolic link gets its
// target's), for tools that check what a server sends.
func ContentType(t tree.Tree, p string) (string, error) {
	target, err := resolve(t, p)
	if err != nil {
		return "", err
	}
	return classify(target).ContentType, nil
}
