// Package timeline reads a session the way the client resumes it: the
// leaf, the chain back to the newest compact boundary, preserved segments,
// and a step-by-step timeline of turns and compactions with the context
// accounted by category against a window.
package timeline
