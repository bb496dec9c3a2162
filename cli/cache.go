package cli

import (
	"flag"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// cacheFlags are the flags of a command that keeps what it read across
// runs (engine/diskcache).
type cacheFlags struct {
	off bool
}

// add defines --no-cache on fs.
func (c *cacheFlags) add(fs *flag.FlagSet) {
	fs.BoolVar(&c.off, "no-cache", false, "read everything again; neither read nor write memscope's cache ($XDG_CACHE_HOME/memscope, else ~/.cache/memscope)")
}

// cache is the store a command reading the opened home keeps its results
// in, or nil for none: with --no-cache, for the demo and archive homes
// (a new temporary folder each run), and when the cache folder cannot be
// found or would be inside the Claude home.
func (e *env) cache(c cacheFlags, o *opened) *diskcache.Store {
	if c.off || o.demo != nil || o.home.Source == model.HomeFromDemo || o.home.Source == model.HomeFromArchive {
		return nil
	}
	dir, err := diskcache.Dir(e.getenv, e.userHome, o.home.Dir)
	if err != nil {
		return nil
	}
	return diskcache.New(dir, e.root, e.writer())
}
