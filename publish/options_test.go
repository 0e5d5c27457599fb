package publish

import (
	"strings"
	"testing"

	"github.com/discgen/discgen/serverconf"
)

func TestOptionsCheck(t *testing.T) {
	nginx := []serverconf.Kind{serverconf.Nginx}
	for _, c := range []struct {
		o    Options
		want string // "" for none
	}{
		{Options{Out: "public"}, ""},
		{Options{Shard: 2, Shards: 8}, ""},
		{Options{Shard: 1, Shards: 2, Tenants: []string{"a.yaml"}}, "--shard and --tenant"},
		{Options{Shard: 9, Shards: 8}, "shard 9 of 8"},
		{Options{Out: "public", Server: nginx, ServerDir: "server"}, ""},
		{Options{Out: "public", ServerDir: "public/server"}, ""}, // no --server: nothing written there
		{Options{Out: "public", Server: nginx, ServerDir: "public/server"}, "inside the output directory"},
		{Options{Out: "public", Server: nginx, ServerDir: "public"}, "inside the output directory"},
		{Options{Out: "public", Server: nginx, ServerDir: "public-server"}, ""},
	} {
		err := c.o.Check()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
}
