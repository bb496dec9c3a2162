package feed

import (
	"context"
	"io/fs"

	tea "charm.land/bubbletea/v2"

	engsearch "github.com/memscope/memscope/engine/search"
	"github.com/memscope/memscope/model"
)

// Search feeds the Search overlay (ctrl+f): engine/search over every
// store. The search runs in a goroutine that hands each file's hits, in
// the engine's order (transcripts newest first, then history, pastes,
// memory, CLAUDE.md, file history), to a channel; a command pumps the
// channel and returns what is ready as one message, and the shell
// re-issues it until the channel closes (the streaming pattern of
// STYLE.md). Stop cancels the search's context. A newer search
// supersedes an older one: messages carry the search's number, and the
// older context is cancelled.
type Search struct {
	env SearchEnv
	// gen numbers the searches; cancel stops the one under way.
	gen    int
	cancel context.CancelFunc
}

// SearchEnv is what a search reads: the home, the machine's file system
// from "/" (nil: nothing but the home) and the environment.
type SearchEnv struct {
	Home    *model.Home
	Machine fs.FS
	Getenv  func(string) string
}

// NewSearch returns a feed with no search run.
func NewSearch(env SearchEnv) *Search { return &Search{env: env} }

// maxSearchBatch bounds the hits one message carries, so a query that
// matches everywhere still draws as it goes.
const maxSearchBatch = 2000

// SearchFinish is how a search ended.
type SearchFinish struct {
	Summary engsearch.Summary
	Err     error
}

// SearchBatch is what a search found since the last message; Fin is set
// when it ended.
type SearchBatch struct {
	gen  int
	Hits []engsearch.Hit
	Fin  *SearchFinish
	ch   <-chan []engsearch.Hit
	done <-chan SearchFinish
}

// Gen is the number of the newest search (0 before the first).
func (s *Search) Gen() int { return s.gen }

// Stop cancels the running search; its last message still comes, with
// what was found.
func (s *Search) Stop() {
	if s.cancel != nil {
		s.cancel()
	}
}

// Start stops the search under way and starts q in the background, in
// project when it is set (nil: every project), then in what only the
// rescue vault in vaultDir ("": none) holds (searchvault.go).
func (s *Search) Start(q *engsearch.Query, project *engsearch.Project, vaultDir string) tea.Cmd {
	s.Stop()
	e := s.env
	o := engsearch.Options{Home: e.Home.FS, HomeDir: e.Home.Dir, Root: Mount(e.Machine, e.Home), UserHome: e.Getenv("HOME"), Getenv: e.Getenv, Query: q, Project: project}
	s.gen++
	gen := s.gen
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	ch := make(chan []engsearch.Hit, 64)
	done := make(chan SearchFinish, 1)
	go func() {
		defer close(ch)
		sum, err := searchHomeAndVault(ctx, o, vaultDir, e.Home.FS, func(b engsearch.Batch) error {
			if len(b.Hits) == 0 {
				return nil
			}
			select {
			case ch <- b.Hits:
				return nil
			case <-ctx.Done():
				return nil // Run sees the cancel and says so in the summary
			}
		})
		done <- SearchFinish{Summary: sum, Err: err}
	}()
	return pump(gen, ch, done)
}

// Current reports whether msg is of the newest search (an older one's
// the user replaced).
func (s *Search) Current(msg SearchBatch) bool { return msg.gen == s.gen }

// Next waits for the search's next hits after msg (not ended).
func (s *Search) Next(msg SearchBatch) tea.Cmd { return pump(msg.gen, msg.ch, msg.done) }

// pump waits for the search's next hits and returns them with whatever
// else is ready, or its end.
func pump(gen int, ch <-chan []engsearch.Hit, done <-chan SearchFinish) tea.Cmd {
	return func() tea.Msg {
		msg := SearchBatch{gen: gen, ch: ch, done: done}
		hits, ok := <-ch
		for ok {
			msg.Hits = append(msg.Hits, hits...)
			if len(msg.Hits) >= maxSearchBatch {
				return msg
			}
			select {
			case hits, ok = <-ch:
			default:
				return msg
			}
		}
		f := <-done
		msg.Fin = &f
		return msg
	}
}
