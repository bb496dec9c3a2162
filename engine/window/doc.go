// Package window owns the context window arithmetic of the client: token
// estimates from characters, the 200k and 1M presets, and the warning,
// autocompact and blocking levels (with CLAUDE_AUTOCOMPACT_PCT_OVERRIDE).
// It imports no other engine package but the JS string helpers.
package window
