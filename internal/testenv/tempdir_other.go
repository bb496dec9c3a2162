//go:build !linux

package testenv

// shmFacts is nil off Linux: its /dev/shm, where there is one, is not
// tried.
func shmFacts(string) *FSFacts { return nil }
