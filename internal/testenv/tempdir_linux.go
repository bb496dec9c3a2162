package testenv

import "syscall"

// tmpfsMagic is statfs's type of a tmpfs (TMPFS_MAGIC).
const tmpfsMagic = 0x01021994

// shmFacts is what statfs and access say of dir; nil when it is not
// there.
func shmFacts(dir string) *FSFacts {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return nil
	}
	const wOK = 2
	return &FSFacts{
		Tmpfs:    int64(st.Type) == tmpfsMagic,
		Writable: syscall.Access(dir, wOK) == nil,
		Free:     st.Bavail * uint64(st.Bsize),
	}
}
