package model

import (
	"bytes"
	"io/fs"
	"strconv"
	"strings"
)

// ReadProcEnviron reads the environment of process pid from
// /proc/<pid>/environ through root (an fs.FS rooted at "/"): readable
// only for a process of the same user. ok is false when it cannot be
// read; the answer is then unknown, not empty.
func ReadProcEnviron(root fs.FS, pid int) (getenv func(string) string, from string, ok bool) {
	if pid <= 0 || root == nil {
		return nil, "", false
	}
	name := "proc/" + strconv.Itoa(pid) + "/environ"
	data, err := ReadFileBounded(root, name, MaxSmallBytes)
	if err != nil || len(data) == 0 {
		return nil, "", false
	}
	env := map[string]string{}
	for _, kv := range bytes.Split(data, []byte{0}) {
		if k, v, found := strings.Cut(string(kv), "="); found && k != "" {
			env[k] = v
		}
	}
	return func(k string) string { return env[k] }, "/" + name, true
}
