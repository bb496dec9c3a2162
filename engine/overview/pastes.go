package overview

import (
	"sync"

	"github.com/memscope/memscope/engine/secrets"
	"github.com/memscope/memscope/model"
)

// firstCounts is the first secrets count of a Pass (an app's start), for
// the two lines that read the paste folders: the secrets line's scan
// reads every paste the secrets cache does not answer for, and the
// Problems line's stat hashes every paste its cache has no verdict on
// (the paste inventory's check). The count hashes each paste on its
// read (secrets.Options.PasteSums) and the Problems line takes those
// verdicts, so a cold start reads each paste once, not twice. Whichever
// of the two lines comes first runs the count, the other waits for it;
// the secrets line takes its report (once: a later count is its own).
type firstCounts struct {
	once     sync.Once
	mu       sync.Mutex
	report   *secrets.Report
	verdicts []model.PasteVerdict
}

// secretCounts is secrets.Counts of the home (no project) for the
// secrets line: the Pass's first count when it is not taken yet.
func (s *Source) secretCounts() secrets.Report {
	o := s.secretsOptions()
	if p := s.Pass; p != nil && s.Cache != nil {
		if r, ok := p.counts.first(o, s); ok {
			return r
		}
	}
	return secrets.Counts(o, s.Cache)
}

// pasteVerdicts are the verdicts on the pastes the Pass's first secrets
// count read (running it when no line has yet): nil without a pass.
func (s *Source) pasteVerdicts() []model.PasteVerdict {
	p := s.Pass
	if p == nil || s.Cache == nil {
		return nil
	}
	c := &p.counts
	c.run(s.secretsOptions(), s)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.verdicts
}

func (s *Source) secretsOptions() secrets.Options {
	return secrets.Options{Home: s.Env.Home, Root: s.Env.Root, UserHome: s.Env.UserHome}
}

// run counts once, keeping the report and the pastes' verdicts.
func (c *firstCounts) run(o secrets.Options, s *Source) {
	c.once.Do(func() {
		var vs []model.PasteVerdict
		var mu sync.Mutex
		// The memory files it reads are the inventory's (problemsLine,
		// after it): read once.
		o.KeepMemory = true
		o.PasteSums = func(v model.PasteVerdict) {
			mu.Lock()
			vs = append(vs, v)
			mu.Unlock()
		}
		r := secrets.Counts(o, s.Cache)
		c.mu.Lock()
		c.report, c.verdicts = &r, vs
		c.mu.Unlock()
	})
}

// first is the first count's report, once (ok false after).
func (c *firstCounts) first(o secrets.Options, s *Source) (secrets.Report, bool) {
	c.run(o, s)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.report == nil {
		return secrets.Report{}, false
	}
	r := *c.report
	c.report = nil
	return r, true
}
