// Package archtest holds the test that keeps memscope's import graph the
// shape docs/ARCHITECTURE.md draws: every arrow points down. It has no
// code of its own.
package archtest
