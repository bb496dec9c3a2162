//go:build !linux

package feed

// lockNiceThread does nothing where a thread's nice value is not its own
// (the whole read runs as any other).
func lockNiceThread(int) {}

// threadNice is not had here.
func threadNice() (int, bool) { return 0, false }
