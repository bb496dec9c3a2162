package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	memjournal "github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/model"
)

// TestJournalKeepsEveryChangeOfTwoProcesses: stores opened separately on
// one folder (as the TUI and a CLI command are) change it at the same
// time. Every change that succeeds has its journal entry, so each can be
// undone; without the journal lock, entries were lost to concurrent
// rewrites of the journal.
func TestJournalKeepsEveryChangeOfTwoProcesses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const n = 16
	var wg sync.WaitGroup
	var mu sync.Mutex
	succeeded := 0
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, _ := Open(dir, nil)
			// NoIndex: each change touches only its own file, so none
			// conflicts with another and all of them land.
			_, err := s.Create(NewMemory{Name: fmt.Sprintf("note %d", i), Type: model.TypeProject,
				Description: "d", Body: "b", NoIndex: true}, WriteOptions{Now: enginetest.OpsNow})
			if err != nil {
				t.Errorf("create %d: %v", i, err)
				return
			}
			mu.Lock()
			succeeded++
			mu.Unlock()
		}()
	}
	wg.Wait()
	s, _ := Open(dir, nil)
	entries, probs, err := s.Journal()
	if err != nil || len(probs) > 0 {
		t.Fatalf("journal: %v %v", err, probs)
	}
	if len(entries) != succeeded || succeeded != n {
		t.Fatalf("%d changes landed, the journal holds %d entries", succeeded, len(entries))
	}
	for range n {
		if _, err := s.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	s.Reload()
	if files := len(s.Memory().Files); files != 0 {
		t.Fatalf("%d memory files left after undoing every change", files)
	}
}

// lockJournalFile serializes read-extend-rewrite of any journal (here a
// counter rewritten whole, as journals are), each taker opening the lock
// on its own as a second process would.
func TestLockJournalFileSerializesRewrites(t *testing.T) {
	journal := filepath.Join(t.TempDir(), ".memscope", "file-history", "s1", "journal.jsonl")
	const n = 32
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer memjournal.LockFile(journal)()
			data, _ := os.ReadFile(journal)
			count, _ := strconv.Atoi(string(data))
			time.Sleep(time.Millisecond) // widen the window a lost update needs
			if err := model.WriteFileAtomic(journal, []byte(strconv.Itoa(count+1)), 0o600); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	data, _ := os.ReadFile(journal)
	if string(data) != strconv.Itoa(n) {
		t.Fatalf("counter %s after %d locked rewrites", data, n)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(journal), "journal.lock")); err != nil {
		t.Fatalf("no lock beside the journal: %v", err)
	}
}
