package vault

import (
	"io/fs"
	"testing"
	"testing/fstest"
	"time"
)

// After a sweep, the lost view holds session A's files, byte for byte
// as they were, at their home paths, and nothing the home still has;
// it passes the standard library's file system checks.
func TestLostViewHoldsWhatTheSweepDeleted(t *testing.T) {
	home := testHome(t, 60)
	before := snapshot(t, home, ofSessionA)
	v := openVault(t, nil)
	syncHome(t, v, home, t0.Add(time.Hour))
	sweep(t, home)
	l, err := v.Lost(homeOf(t, home).FS)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if got := l.Sessions(); len(got) != 1 || got[0] != sidA || !l.Has(sidA) || l.Has(sidB) {
		t.Fatalf("lost sessions %v, want only A (B is still in the home)", got)
	}
	want := []string{
		"projects/" + proj + "/" + sidA + ".jsonl",
		"projects/" + proj + "/" + sidA + "/subagents/agent-a1.jsonl",
		"projects/" + proj + "/" + sidA + "/subagents/agent-a1.meta.json",
		"projects/" + proj + "/" + sidA + "/tool-results/abc.txt",
	}
	for _, p := range want {
		data, err := fs.ReadFile(l, p)
		if err != nil || string(data) != before[p].data {
			t.Errorf("%s: %v, %d bytes, want %d bytes as before the sweep", p, err, len(data), len(before[p].data))
		}
		st, err := fs.Stat(l, p)
		if err != nil || !st.ModTime().Equal(before[p].mtime) {
			t.Errorf("%s: stat %v %v, want mtime %v", p, st, err, before[p].mtime)
		}
	}
	if _, err := fs.Stat(l, "projects/"+proj+"/"+sidB+".jsonl"); err == nil {
		t.Error("the view holds B's transcript, which the home still has")
	}
	if err := fstest.TestFS(l, want...); err != nil {
		t.Error(err)
	}
}
