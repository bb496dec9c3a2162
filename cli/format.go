package cli

import "fmt"

// Text helpers more than one command's report uses. Sizes and ids are
// written by package internal/format, shared with the panes.

// countOf is "1 memory" or "3 memories".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
