package cleanup

import "time"

// VaultCoverage says which of the transcripts the sweep deletes (now and
// within the horizon) memscope's rescue vault holds as they are.
type VaultCoverage struct {
	Dir string `json:"dir"`
	// Sessions counts the transcripts eligible now or within the
	// horizon; Kept those the vault holds as they are now.
	Sessions int       `json:"sessions"`
	Kept     int       `json:"kept"`
	LastSync time.Time `json:"lastSync,omitzero"`
	// NotKept are those transcripts' paths the vault lacks (or holds an
	// older state of).
	NotKept []string `json:"notKept"`
}

// CoverVault marks the items the vault holds as they are (safe says so
// of a path, its size and mtime) and sums up the transcripts the sweep
// deletes now or within the horizon.
func (f *Forecast) CoverVault(dir string, lastSync time.Time, safe func(rel string, size int64, mtime time.Time) bool) {
	c := &VaultCoverage{Dir: dir, LastSync: lastSync, NotKept: []string{}}
	for i := range f.Items {
		it := &f.Items[i]
		if it.Dir {
			continue
		}
		it.Vaulted = safe(it.Path, it.Size, it.ModTime)
		if it.Kind != KindTranscript || it.Bucket != BucketNow && it.Bucket != BucketSoon {
			continue
		}
		c.Sessions++
		if it.Vaulted {
			c.Kept++
		} else {
			c.NotKept = append(c.NotKept, it.Path)
		}
	}
	f.Vault = c
}
