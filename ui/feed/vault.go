package feed

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	enginesessions "github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/engine/vault"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/text"
	"github.com/memscope/memscope/views/replay"
)

// Vault feeds the Replay pane the sessions of the open project that only
// the rescue vault holds (vault.Lost, what `sessions --lost` lists),
// opens one from the vault's copy, and puts one back with the engine
// restore `memscope vault restore` runs, journaled in the home so undo
// (u, `memscope undo`) takes it back. The Search overlay opens its
// vault-only hits through Lost too.
type Vault struct {
	// dir is the vault ("" for none: the demo, or no vault folder);
	// root mounts the machine's files, home is the home it keeps.
	dir  string
	root fs.FS
	home *model.Home
	w    model.WriteFS
	// listed is what the vault rows were last read for: the project and
	// the home's session ids then. They are read again only when either
	// changes (a session swept or put back), not on every append.
	listed *vaultListed
}

type vaultListed struct {
	slug string
	ids  string
}

// NewVault returns the feed of the vault in dir ("" for none) over root
// for home, restoring through w.
func NewVault(dir string, root fs.FS, home *model.Home, w model.WriteFS) *Vault {
	return &Vault{dir: dir, root: root, home: home, w: w}
}

// VaultSessions carries the open project's vault-only sessions.
type VaultSessions struct {
	Slug     string
	Sessions []replay.Session
	Err      error
}

// PaneMsg is the Replay pane's message for v.
func (v VaultSessions) PaneMsg() replay.VaultSessionsMsg {
	return replay.VaultSessionsMsg{Project: v.Slug, Sessions: v.Sessions}
}

// Status is what the status line says of v ("" for nothing: no vault is
// not an error).
func (v VaultSessions) Status() string {
	if v.Err == nil || errors.Is(v.Err, vault.ErrNoVault) {
		return ""
	}
	return "rescue vault: " + v.Err.Error()
}

// VaultRestored is what a restore from the Replay pane did.
type VaultRestored struct {
	Slug string
	Rep  vault.RestoreReport
	Err  error
}

// Status is what the status line says of r, and whether it is an error.
func (r VaultRestored) Status() (string, bool) {
	if r.Err != nil {
		return r.Err.Error(), true
	}
	// The short part first: a narrow status line cuts the session id.
	return fmt.Sprintf("put back %s (%s), u undoes it · session %s is where claude --resume finds it",
		text.Count(r.Rep.Written, "file", ""), text.Bytes(r.Rep.Bytes), r.Rep.Session), false
}

// homeSessionIDs are the ids of ss, sorted and joined.
func homeSessionIDs(ss []replay.Session) string {
	ids := make([]string, len(ss))
	for i, s := range ss {
		ids[i] = s.File.SessionID
	}
	slices.Sort(ids)
	return strings.Join(slices.Compact(ids), " ")
}

// SessionsAfter reads the vault rows of slug when its home sessions ss
// are not those they were read beside (nil when they are, and when there
// is no vault).
func (v *Vault) SessionsAfter(slug string, ss []replay.Session) tea.Cmd {
	ids := homeSessionIDs(ss)
	if v.dir == "" || v.listed != nil && *v.listed == (vaultListed{slug: slug, ids: ids}) {
		return nil
	}
	v.listed = &vaultListed{slug: slug, ids: ids}
	dir, root, home := v.dir, v.root, v.home
	return func() tea.Msg {
		ss, err := lostSessions(root, dir, home, slug)
		return VaultSessions{Slug: slug, Sessions: ss, Err: err}
	}
}

// Forget makes the next SessionsAfter read the vault rows again (the
// home's sessions changed under them: a restore).
func (v *Vault) Forget() { v.listed = nil }

// lostSessions lists the transcripts of project slug that the vault in
// dir holds and home does not, summarized as the home's are.
func lostSessions(root fs.FS, dir string, home *model.Home, slug string) ([]replay.Session, error) {
	vt := vault.Open(dir, root, nil)
	if err := vt.Exists(); err != nil {
		return nil, err
	}
	l, err := vt.Lost(home.FS)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	sf, _ := model.FindProjectSessionFiles(l, slug)
	out := make([]replay.Session, len(sf.Transcripts))
	fw := make(map[string]*enginesessions.Follower, len(sf.Transcripts))
	for i, t := range sf.Transcripts {
		fw[t.Path] = enginesessions.NewFollower()
		out[i] = replay.Session{File: t, Vault: true}
	}
	SummarizeSessions(l, out, fw)
	return out, nil
}

// Lost opens the vault's view of what the home lost, for reading a
// session only the vault holds; close releases it.
func (v *Vault) Lost() func() (fs.FS, func(), error) {
	dir, root, home := v.dir, v.root, v.home
	return func() (fs.FS, func(), error) {
		if dir == "" {
			return nil, nil, errors.New("no rescue vault for this home")
		}
		l, err := vault.Open(dir, root, nil).Lost(home.FS)
		if err != nil {
			return nil, nil, err
		}
		return l, func() { l.Close() }, nil
	}
}

// Restore puts session back into the home from the vault, journaled as
// of now so undo takes it back; slug is the open project, whose list is
// read again after.
func (v *Vault) Restore(slug, session string, now time.Time) tea.Cmd {
	dir, root, home, w := v.dir, v.root, v.home, v.w
	return func() tea.Msg {
		rep, err := vault.Open(dir, root, w).Restore(vault.RestoreOptions{Home: home, Session: model.SessionID(session), Now: now,
			Journal: store.OpenHome(home.Dir, w).Creates(vault.OpRestore, now)})
		return VaultRestored{Slug: slug, Rep: rep, Err: err}
	}
}
