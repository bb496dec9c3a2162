// Package window owns the context window arithmetic of the client: token
// estimates from characters, the 200k and 1M presets, the warning,
// autocompact and blocking levels (with CLAUDE_AUTOCOMPACT_PCT_OVERRIDE
// and an autocompact window), and Resolve: the window and levels of one
// session from its model, the environment memscope can see, the client's
// settings files and the session's own compactions, each with its source.
// It imports no other engine package but the JS string helpers.
package window
