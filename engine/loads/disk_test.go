package loads

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// diskRun is one run's build over a cache kept in store: a cache loaded
// from it, the transcript bytes the build read, and the cache saved back.
func diskRun(t *testing.T, o Options, store *diskcache.Store, homeDir string) (Report, int64) {
	t.Helper()
	rc := &testenv.ReadCounter{FS: o.Home, Count: func(name string) bool { return strings.HasSuffix(name, ".jsonl") }}
	o.Home = rc
	o.Cache = NewCacheOn(store, homeDir)
	// The fixture's files were just written: read an hour later, they
	// are settled.
	o.Cache.clock = func() time.Time { return time.Now().Add(time.Hour) }
	r := Build(o)
	if err := o.Cache.Save(); err != nil {
		t.Fatal(err)
	}
	return r, rc.N.Load()
}

func transcriptBytes(t *testing.T, o Options) int64 {
	t.Helper()
	files, _ := model.FindProjectTranscripts(o.Home, o.Slug)
	var n int64
	for _, f := range files {
		n += f.Size
	}
	if n == 0 {
		t.Fatal("the fixture has no transcript: the test proves nothing")
	}
	return n
}

// A cache kept on disk answers the next run for every unchanged
// transcript from one stat each, even for a build that reads none
// (CachedOnly: the app's first project load), with the report a build
// reading every transcript makes, the loaded MEMORY.md's entries
// included; without it that build knows nothing of the loads.
func TestDiskCacheAnswersTheNextRunUnread(t *testing.T) {
	o, f := newFixture(t)
	want := Build(o)
	store := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	if _, n := diskRun(t, o, store, f.home); n != transcriptBytes(t, o) {
		t.Fatalf("the first run read %d transcript bytes, want %d", n, transcriptBytes(t, o))
	}
	o.CachedOnly = true
	got, n := diskRun(t, o, store, f.home)
	if n != 0 {
		t.Errorf("the second run read %d transcript bytes, want none", n)
	}
	if got.Partial {
		t.Error("the second run's cached-only build says it is partial")
	}
	got.Partial = want.Partial
	if !reflect.DeepEqual(got, want) {
		t.Errorf("from the disk cache:\n%+v\nread:\n%+v", got, want)
	}
	// A third run still has them (the second kept what it used).
	if third, n := diskRun(t, o, store, f.home); n != 0 || third.Partial || third.Sessions != want.Sessions {
		t.Errorf("third run: read %d bytes, partial %v, %d sessions", n, third.Partial, third.Sessions)
	}
}

// A kept transcript whose file changed is read again: appended,
// truncated, its mtime moved, rewritten to the same size with its mtime
// put back (its change time moved), replaced by another file of the same
// size and time (another inode); a new transcript is read; the others
// still come from the cache.
func TestDiskCacheRereadsChangedFiles(t *testing.T) {
	s2 := func(f fixture) string { return filepath.Join(f.home, "projects", f.slug, "s2.jsonl") }
	sameSize := func(t *testing.T, p string, edit func(b []byte) []byte) {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		if err := os.WriteFile(p, edit(b), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, info.ModTime(), info.ModTime())
	}
	// Each change leaves s2's events such that the report tells them
	// apart from the kept ones, or adds a transcript.
	tests := []struct {
		name   string
		change func(t *testing.T, f fixture)
	}{
		{"appended", func(t *testing.T, f fixture) {
			fh, err := os.OpenFile(s2(f), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			fh.WriteString(nested("s2", now.Add(-time.Hour), filepath.Join(f.proj, ".claude/rules/never.md"), "db/**/*.sql"))
			fh.Close()
		}},
		{"truncated", func(t *testing.T, f fixture) {
			b, _ := os.ReadFile(s2(f))
			first := b[:strings.IndexByte(string(b), '\n')+1]
			os.WriteFile(s2(f), first, 0o600)
		}},
		{"mtime moved", func(t *testing.T, f fixture) {
			// The same bytes, touched: read again (and the same events).
			later := now.Add(time.Hour)
			os.Chtimes(s2(f), later, later)
		}},
		{"rewritten, same size and mtime", func(t *testing.T, f fixture) {
			before := ctime(t, s2(f))
			// Rewritten until its change time moves (the kernel's clock
			// ticks every few milliseconds).
			for i := 0; ctime(t, s2(f)) == before; i++ {
				if i > 1000 {
					t.Fatal("the change time never moved")
				}
				time.Sleep(time.Millisecond)
				sameSize(t, s2(f), func(b []byte) []byte { return []byte(strings.Replace(string(b), `"s2"`, `"s9"`, 1)) })
			}
		}},
		{"replaced, same size and mtime", func(t *testing.T, f fixture) {
			p := s2(f)
			info, _ := os.Stat(p)
			b, _ := os.ReadFile(p)
			tmp := p + ".new"
			os.WriteFile(tmp, []byte(strings.Replace(string(b), `"s2"`, `"s8"`, 1)), 0o600)
			os.Chtimes(tmp, info.ModTime(), info.ModTime())
			if err := os.Rename(tmp, p); err != nil {
				t.Fatal(err)
			}
		}},
		{"new transcript", func(t *testing.T, f fixture) {
			p := filepath.Join(f.home, "projects", f.slug, "s4.jsonl")
			os.WriteFile(p, []byte(instr("s4", now.Add(-time.Hour), [3]string{filepath.Join(f.home, "CLAUDE.md"), "User", "Be brief."})), 0o600)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, f := newFixture(t)
			store := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
			diskRun(t, o, store, f.home)
			tt.change(t, f)
			want := Build(o) // every transcript read
			o.CachedOnly = true
			got, n := diskRun(t, o, store, f.home)
			changed := s2(f)
			if tt.name == "new transcript" {
				// The new one is not in the cache: a cached-only build
				// lacks it and says so; the rest is the cache's.
				if !got.Partial || n != 0 || got.Sessions != want.Sessions-1 {
					t.Errorf("new transcript: partial %v, read %d bytes, %d sessions (all read: %d)", got.Partial, n, got.Sessions, want.Sessions)
				}
				o.CachedOnly = false
				got, n = diskRun(t, o, store, f.home)
				changed = filepath.Join(f.home, "projects", f.slug, "s4.jsonl")
			} else if !got.Partial {
				// A cached-only build takes nothing stale from the disk.
				t.Errorf("a cached-only build over a changed transcript is not partial")
			}
			if tt.name != "new transcript" {
				o.CachedOnly = false
				got, n = diskRun(t, o, store, f.home)
			}
			info, _ := os.Stat(changed)
			if n != info.Size() {
				t.Errorf("read %d transcript bytes, want %d (the changed file only)", n, info.Size())
			}
			got.Partial = want.Partial
			if !reflect.DeepEqual(got, want) {
				t.Errorf("after the change:\n%+v\nall read:\n%+v", got, want)
			}
		})
	}
}

// A cache file from nothing, torn, or of another kind is no answer: the
// build reads every transcript.
func TestDiskCacheIgnoresABrokenFile(t *testing.T) {
	o, f := newFixture(t)
	dir := filepath.Join(t.TempDir(), "cache")
	store := diskcache.New(dir, testroot.New(t), model.OSWriteFS{})
	diskRun(t, o, store, f.home)
	p := filepath.Join(dir, diskcache.Name(DiskKind, f.home))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, b[:len(b)/2], 0o600)
	o.CachedOnly = true
	if got, n := diskRun(t, o, store, f.home); n != 0 || !got.Partial || got.Sessions != 0 {
		t.Errorf("torn cache file: read %d bytes, partial %v, %d sessions", n, got.Partial, got.Sessions)
	}
}

func ctime(t *testing.T, p string) int64 {
	t.Helper()
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return model.StampOf(info).ChangeTime
}

// A transcript changed less than settled before it is read is not kept:
// a write in the same tick of the kernel's clock after the read would
// leave its information as stamped.
func TestDiskCacheKeepsNoUnsettledFile(t *testing.T) {
	o, f := newFixture(t)
	store := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	c := NewCacheOn(store, f.home)
	s2 := "projects/" + f.slug + "/s2.jsonl"
	settledAt := time.Unix(0, ctime(t, filepath.Join(f.home, filepath.FromSlash(s2)))).Add(settled)
	c.clock = func() time.Time { return settledAt.Add(-time.Nanosecond) }
	o.Cache = c
	Build(o)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	kept, _ := diskcache.Load[diskCache](store, DiskKind, diskcache.Name(DiskKind, f.home))
	if _, ok := kept.Files[s2]; ok {
		t.Errorf("%s kept though it changed less than %v before its read", s2, settled)
	}
	// At settled, it is kept.
	c = NewCacheOn(store, f.home)
	c.clock = func() time.Time { return settledAt }
	o.Cache = c
	Build(o)
	c.Save()
	kept, _ = diskcache.Load[diskCache](store, DiskKind, diskcache.Name(DiskKind, f.home))
	if _, ok := kept.Files[s2]; !ok {
		t.Errorf("%s not kept once settled", s2)
	}
}
