// Package udiff writes unified diffs (Myers) of two texts.
package udiff
