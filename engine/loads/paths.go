package loads

import (
	"strings"

	"github.com/memscope/memscope/model"
)

// pathMapper maps the Claude home a transcript recorded (on the machine
// and in the folder that ran the client) to the home being read, so a
// copied or archived home's loads name its files where they are now.
type pathMapper struct {
	homes []string // recorded homes other than the current one
	to    string
}

// newPathMapper finds the recorded homes: each MEMORY.md load names one,
// as <home>/projects/<slug>/memory/MEMORY.md.
func newPathMapper(events []Event, homeDir string) pathMapper {
	m := pathMapper{to: strings.TrimSuffix(homeDir, "/")}
	seen := map[string]bool{m.to: true}
	for _, ev := range events {
		for _, f := range ev.Files {
			if f.Label != model.AttachmentAutoMem {
				continue
			}
			i := strings.LastIndex(f.Path, "/projects/")
			if i <= 0 || !strings.HasSuffix(f.Path, "/memory/"+model.MemoryIndexName) {
				continue
			}
			if h := f.Path[:i]; !seen[h] {
				seen[h] = true
				m.homes = append(m.homes, h)
			}
		}
	}
	return m
}

// apply maps p from a recorded home to the current one.
func (m pathMapper) apply(p string) string {
	if m.to == "" {
		return p
	}
	for _, h := range m.homes {
		if rest, ok := strings.CutPrefix(p, h+"/"); ok {
			return m.to + "/" + rest
		}
	}
	return p
}
