package vault

import (
	"io/fs"
	"sync/atomic"

	"github.com/memscope/memscope/model"
)

// Read-ahead: a first sync reads every file of the home, and on a cold
// page cache each read waited for the disk while no core worked (a
// cold first sync took as much longer than a warm one as a cold `cat`
// of the same files takes: docs/VAULT.md). A prefetcher runs ahead of
// the file workers, opens the next files to be read and asks the kernel
// to read them in (posix_fadvise WILLNEED, where the platform has it;
// not for a large file already in memory: cachedMin), and hands the
// open file to the worker that reads it (each file is still opened
// once). It keeps at most prefetchFiles ahead of the workers, and
// opens no more once the files it holds come to prefetchBytes (the last
// one opened may take them past it: a file's size is known at its
// open). (Variables: a test lowers them.)
var (
	prefetchBytes int64 = 48 << 20
	prefetchFiles       = 128
)

// adviseHook, when set, is called for each file the prefetcher opens
// and advises, with the bytes it then holds ahead of the workers
// (this file's included): a test's seam.
var adviseHook func(rel string, ahead int64)

// cachedMin: a file of at least this many bytes is advised only when
// its pages are not all in memory already (cachedOf); a smaller one is
// advised without asking, which costs less than the asking (on a warm
// cache ~0.7 µs a file of a few pages against ~2 µs; WILLNEED of a file
// over 1 MiB ~45 µs, the asking still ~2 µs).
const cachedMin = 256 << 10

// cachedOf reports whether the file rel the prefetcher opened (f, size
// bytes) is in memory (pagesCached: its first and last pages): a test
// replaces it.
var cachedOf = func(rel string, f fs.File, size int64) bool { return pagesCached(f, size) }

// prefetcher opens and advises files ahead of syncAll's workers.
type prefetcher struct {
	files []homeFile
	// open[i] is files[i], opened ahead (nil: the worker opens it).
	open []atomic.Pointer[fs.File]
	// next is the workers' position (the first file not handed out),
	// wake pokes the prefetcher when it moves, done ends it.
	next *atomic.Int64
	wake chan struct{}
	done chan struct{}
	// ended is closed when the prefetcher has returned.
	ended chan struct{}
	// lead: a file fewer than lead past the workers' position is left
	// to them (one per worker): they would take it while it is being
	// opened, and open it again.
	lead int
}

// startPrefetch starts reading ahead of the workers (as many as lead)
// over files (next: their position), or returns nil where files cannot
// be advised.
func (s *syncer) startPrefetch(files []homeFile, next *atomic.Int64, lead int) *prefetcher {
	if !canAdvise || len(files) <= lead {
		return nil
	}
	p := &prefetcher{files: files, open: make([]atomic.Pointer[fs.File], len(files)), next: next,
		wake: make(chan struct{}, 1), done: make(chan struct{}), ended: make(chan struct{}), lead: lead}
	// Only the files the vault has no record of are read ahead: they are
	// read whole (a first sync's), while a known file is unchanged or
	// read from its last chunk on. They are told apart before the
	// workers start, under one hold of the state's lock (the prefetcher
	// took it for every file, beside the workers).
	fresh := make([]bool, len(files))
	s.mu.Lock()
	for i, f := range files {
		fresh[i] = s.st.entries[f.rel] == nil
	}
	s.mu.Unlock()
	go p.run(s, fresh)
	return p
}

// run walks the files in the workers' order, skipping those the vault
// knows (fresh false), and opens and advises each while the bytes and
// files it holds ahead of the workers stay under the bounds: the bytes
// are those of the files it opened (a file's size is known once it is
// opened: the walk lists files without their information), so the last
// file opened may take them past prefetchBytes.
func (p *prefetcher) run(s *syncer, fresh []bool) {
	defer close(p.ended)
	// cum[i] is the bytes of the files before i the prefetcher opened.
	cum := make([]int64, len(p.files)+1)
	for i := range p.files {
		cum[i+1] = cum[i]
		if !fresh[i] {
			continue
		}
		for {
			select {
			case <-p.done:
				return
			default:
			}
			cur := int(p.next.Load())
			if i < cur+p.lead {
				break // the workers are at it or passed it
			}
			if cum[i]-cum[cur] < prefetchBytes && i-cur < prefetchFiles || i == cur+p.lead {
				cum[i+1] += p.advise(s, i, cum[i]-cum[cur])
				break
			}
			select {
			case <-p.wake:
			case <-p.done:
				return
			}
		}
	}
}

// advise opens files[i] (before it, the prefetcher held ahead bytes
// ahead of the workers), asks for its pages unless it is empty or a
// large file's are in memory already (cachedMin), and leaves it for the worker (a file
// that cannot be opened is left to the worker, which reports it). It
// returns the file's size (0 when not opened).
func (p *prefetcher) advise(s *syncer, i int, ahead int64) int64 {
	f := p.files[i]
	file, err := model.OpenRegular(s.home.FS, f.rel)
	if err != nil {
		return 0
	}
	var size int64
	if info, err := model.OpenedInfo(file); err == nil {
		size = info.Size()
	}
	if size > 0 && (size < cachedMin || !cachedOf(f.rel, file, size)) {
		adviseWillNeed(file)
		if adviseHook != nil {
			adviseHook(f.rel, ahead+size)
		}
	}
	p.open[i].Store(&file)
	return size
}

// take is the file the prefetcher opened for files[i], or nil.
func (p *prefetcher) take(i int) fs.File {
	if p == nil {
		return nil
	}
	if f := p.open[i].Swap(nil); f != nil {
		return *f
	}
	return nil
}

// moved tells the prefetcher the workers took a file.
func (p *prefetcher) moved() {
	if p == nil {
		return
	}
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// stop ends the prefetcher and closes the files it opened that no
// worker took.
func (p *prefetcher) stop() {
	if p == nil {
		return
	}
	close(p.done)
	<-p.ended
	for i := range p.open {
		if f := p.open[i].Swap(nil); f != nil {
			(*f).Close()
		}
	}
}
