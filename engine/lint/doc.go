// Package lint finds what is wrong with a memory folder: index problems,
// broken and dangling links, invalid frontmatter, staleness, duplicates,
// drift from the code, leftovers of interrupted writes, and the findings
// of the security scan.
package lint
