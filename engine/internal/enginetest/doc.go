// Package enginetest holds helpers shared by the engine packages' tests:
// fixture trees, transcript builders, a fixed clock, goldens and fault
// file systems. Only tests import it.
package enginetest
