package publish

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Check reports the first combination of options that cannot run
// together, as a usage error the command line shows as it is.
func (o *Options) Check() error {
	switch {
	case o.Shards > 0 && len(o.Tenants) > 0:
		return errors.New("--shard and --tenant do not go together")
	case o.Shards > 0 && (o.Shard < 1 || o.Shard > o.Shards):
		return fmt.Errorf("shard %d of %d does not exist", o.Shard, o.Shards)
	case len(o.Server) > 0 && inside(o.ServerDir, o.Out):
		return fmt.Errorf("--server-dir %s is inside the output directory %s; server configuration never goes into the published tree", o.ServerDir, o.Out)
	}
	return nil
}

// inside reports whether dir is out or lies below it.
func inside(dir, out string) bool {
	d, err1 := filepath.Abs(dir)
	o, err2 := filepath.Abs(out)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(o, d)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
