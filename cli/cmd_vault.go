package cli

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/memscope/memscope/engine/cleanup"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/engine/vault"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var vaultCommand = &command{
	name:  "vault",
	usage: "memscope vault sync|list|restore SESSION|verify|du|prune [--home DIR] [--vault DIR] [--session ID] [--lost] [--to DIR] [--touch] [--keep-days N] [--dry-run] [--undo ID] [--empty-trash] [--json]",
	summary: "keep every session in a rescue vault outside the home, and put lost ones back\n\n" +
		"The vault ($MEMSCOPE_VAULT, else $XDG_DATA_HOME/memscope/vault, else ~/.local/share/memscope/vault)\n" +
		"keeps transcripts, subagents, tool results, file history, pastes and every version of the memory\n" +
		"folders, deduplicated and compressed, where the client's cleanup sweep cannot reach them.\n" +
		"sync copies what changed since the last sync (only the appended bytes of a growing transcript);\n" +
		"list shows the sessions kept, those no longer in the home first; restore SESSION writes a session\n" +
		"back byte for byte where `claude --resume` finds it, never over a file that differs (--undo ID\n" +
		"removes what a restore wrote); verify re-hashes everything; du shows size by kind and the dedup\n" +
		"ratio; prune --keep-days N drops what left the home more than N days ago (--dry-run first;\n" +
		"--undo ID puts it back until --empty-trash). The vault never writes inside the home.",
	run: steps(parseVault, runVault, showVault),
}

// vaultOptions are vault's arguments.
type vaultOptions struct {
	home       homeFlags
	action     string
	session    string
	dir        string
	lost       bool
	to         string
	touch      bool
	keepDays   int
	dryRun     bool
	undo       string
	emptyTrash bool
	hook       bool
	full       bool
	json       bool
}

var vaultActions = []string{"sync", "list", "restore", "verify", "du", "prune"}

func parseVault(e *env, args []string) (vaultOptions, error) {
	var opts vaultOptions
	fs := newFlags("vault", &opts.home, &opts.json)
	fs.StringVar(&opts.dir, "vault", "", "the vault folder `DIR` (default $MEMSCOPE_VAULT, else $XDG_DATA_HOME/memscope/vault)")
	fs.StringVar(&opts.session, "session", "", "sync: only this session's files (`ID`)")
	fs.BoolVar(&opts.lost, "lost", false, "list: only sessions no longer in the home")
	fs.StringVar(&opts.to, "to", "", "restore: into this Claude home folder `DIR` instead of --home")
	fs.BoolVar(&opts.touch, "touch", false, "restore: give the files today's time, so the next sweep keeps them")
	fs.IntVar(&opts.keepDays, "keep-days", -1, "prune: keep what left the home (or was replaced) within `N` days")
	fs.BoolVar(&opts.dryRun, "dry-run", false, "restore, prune: say what would be done, do nothing")
	fs.StringVar(&opts.undo, "undo", "", "restore, prune: take back the restore or prune `ID`")
	fs.BoolVar(&opts.hook, "hook", false, "sync: run as a Claude Code hook (SessionEnd, PreCompact): sync the session the event on stdin names, within 20 s, never failing")
	fs.BoolVar(&opts.full, "full", false, "sync: list every folder, even the write-once ones (pastes, file history, tool results) unchanged since the last sync (a sync does once a day)")
	fs.BoolVar(&opts.emptyTrash, "empty-trash", false, "prune: delete what earlier prunes moved to the vault's trash")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return opts, err
	}
	if len(pos) == 0 || !slices.Contains(vaultActions, pos[0]) {
		return opts, usageError("usage: " + e.usage())
	}
	opts.action = pos[0]
	switch {
	case opts.action == "restore" && opts.undo == "" && len(pos) != 2:
		return opts, badUsagef("vault restore takes one session id (memscope vault list shows them)")
	case opts.hook && opts.action != "sync":
		return opts, badUsagef("--hook goes with vault sync")
	case opts.full && opts.action != "sync":
		return opts, badUsagef("--full goes with vault sync")
	case opts.action != "restore" && len(pos) != 1:
		return opts, badUsagef("vault %s takes no argument (%q)", opts.action, pos[1])
	case opts.dryRun && opts.action == "prune" && (opts.undo != "" || opts.emptyTrash):
		return opts, badUsagef("--dry-run goes with prune --keep-days N, not with --undo or --empty-trash (they would really be done)")
	case opts.dryRun && opts.action == "restore" && opts.undo != "":
		return opts, badUsagef("--dry-run goes with a restore, not with --undo (it would really be done)")
	case opts.action == "prune" && opts.keepDays < 0 && opts.undo == "" && !opts.emptyTrash:
		return opts, badUsagef("vault prune needs --keep-days N (or --undo ID, --empty-trash)")
	}
	if opts.action == "restore" && len(pos) == 2 {
		opts.session = pos[1]
	}
	return opts, nil
}

// vaultResult is what one vault action returned.
type vaultResult struct {
	action  string
	dir     string
	sync    *vault.SyncReport
	list    []vault.SessionEntry
	restore *vault.RestoreReport
	verify  *vault.VerifyReport
	usage   *vault.Usage
	prune   *vault.PruneReport
	undone  *vaultUndo
	hook    *vaultHookResult
	trashed int64
}

// vaultUndo is what an --undo took back.
type vaultUndo struct {
	ID      string   `json:"id"`
	Removed []string `json:"removed,omitempty"`
	Kept    []string `json:"kept,omitempty"`
	Records int      `json:"records,omitempty"`
}

// vaultSyncGCPercent is the collector's target for a vault sync (see
// raiseGC): a first sync allocates about 130 MB on the bench home (its
// buffers, most of it) and at the default the collector ran six times
// as the heap doubled from 4 MB. At 400: 1.6-2.2 % fewer instructions,
// peak RSS within its spread (docs/VAULT.md, "i31v3").
const vaultSyncGCPercent = 400

// vaultSyncHeadroom is how far a sync's heap may grow over its live heap
// between collections once vaultSyncGCPercent would let it grow more
// (headroomGC): a first sync's peak RSS then follows its live heap plus
// this, not five times it (docs/VAULT.md, "i31r").
const vaultSyncHeadroom = 32 << 20

func runVault(e *env, opts vaultOptions) (vaultResult, error) {
	res := vaultResult{action: opts.action}
	if opts.hook {
		h := runVaultHook(e, opts)
		res.hook = &h
		return res, nil
	}
	o, err := e.openHome(&opts.home)
	if err != nil {
		return res, err
	}
	defer o.close()
	v, err := openVault(e, o, opts.dir)
	if err != nil {
		return res, err
	}
	res.dir = v.Dir
	now := e.now()
	if opts.action != "sync" && !(opts.action == "restore" && opts.undo != "") {
		if err := v.Exists(); err != nil {
			return res, err
		}
	}
	switch opts.action {
	case "sync":
		defer e.headroomGC(vaultSyncGCPercent, vaultSyncHeadroom)()
		r, err := v.Sync(vault.SyncOptions{Home: o.home, Session: model.SessionID(opts.session), Now: now, Full: opts.full})
		res.sync = &r
		return res, err
	case "list":
		l, err := v.List(o.home)
		if opts.lost {
			kept := l[:0]
			for _, s := range l {
				if !s.InHome {
					kept = append(kept, s)
				}
			}
			l = kept
		}
		res.list = l
		return res, err
	case "restore":
		if opts.undo != "" {
			// The undo goes to the home the restore wrote into; a home
			// named on the command line must be that one.
			want := ""
			switch {
			case opts.to != "":
				if want, err = absFrom(e, opts.to); err != nil {
					return res, err
				}
			case opts.home.dir != "" || opts.home.demo:
				want = o.home.Dir
			}
			removed, kept, err := v.UndoRestore(opts.undo, want)
			res.undone = &vaultUndo{ID: opts.undo, Removed: removed, Kept: kept}
			return res, err
		}
		target := o.home
		if opts.to != "" {
			to, err := absFrom(e, opts.to)
			if err != nil {
				return res, err
			}
			if target, err = model.OpenHome(to, model.HomeFromFlag); err != nil {
				return res, badInput(err)
			}
		}
		// The sweep that matters is the target home's.
		days := 0
		if state, d := cleanup.SweepPeriod(e.root, target); state == cleanup.StateActive {
			days = d
		}
		r, err := v.Restore(vault.RestoreOptions{Home: target, Session: model.SessionID(opts.session), Touch: opts.touch,
			SweepDays: days, DryRun: opts.dryRun, Now: now, Journal: memstore.OpenHome(target.Dir, e.writer()).Creates(vault.OpRestore, now)})
		res.restore = &r
		var ce *vault.ConflictError
		if errors.As(err, &ce) {
			return res, fmt.Errorf("restore %s: %w", opts.session, err)
		}
		return res, err
	case "verify":
		r, err := v.Verify()
		res.verify = &r
		return res, err
	case "du":
		u, err := v.Usage()
		res.usage = &u
		return res, err
	case "prune":
		if opts.undo != "" {
			n, err := v.UndoPrune(opts.undo, now)
			res.undone = &vaultUndo{ID: opts.undo, Records: n}
			return res, err
		}
		if opts.emptyTrash {
			freed, err := v.EmptyTrash()
			res.trashed = freed
			if err != nil || opts.keepDays < 0 {
				return res, err
			}
		}
		r, err := v.Prune(vault.PruneOptions{KeepDays: opts.keepDays, DryRun: opts.dryRun, Now: now})
		res.prune = &r
		return res, err
	}
	return res, fmt.Errorf("vault: unknown action %q", opts.action)
}

func showVault(e *env, opts vaultOptions, r vaultResult) error {
	var v any
	switch {
	case r.hook != nil:
		v = r.hook
	case r.undone != nil:
		v = r.undone
	case r.sync != nil:
		v = r.sync
	case r.action == "list":
		if r.list == nil {
			r.list = []vault.SessionEntry{}
		}
		v = r.list
	case r.restore != nil:
		v = r.restore
	case r.verify != nil:
		v = r.verify
	case r.usage != nil:
		v = r.usage
	case r.prune != nil:
		v = r.prune
	default:
		v = map[string]int64{"trashFreed": r.trashed}
	}
	if err := e.output(opts.json, v, func(w io.Writer) { printVault(w, r, e) }); err != nil {
		return err
	}
	if r.verify != nil && !r.verify.OK() {
		return exitStatus(exitRefused)
	}
	return nil
}

func printVault(w io.Writer, r vaultResult, e *env) {
	switch {
	case r.hook != nil:
		h := r.hook
		if h.Skipped != "" {
			fmt.Fprintf(w, "vault hook  nothing synced: %s\n", model.SanitizeLine(h.Skipped))
			return
		}
		fmt.Fprintf(w, "vault hook  %s: session %s synced (%d new, %d changed; %s read)\n", model.SanitizeLine(h.Event), model.SanitizeLine(h.Session),
			h.Synced.New, h.Synced.Changed, format.Bytes(h.Synced.BytesRead))
	case r.undone != nil:
		u := r.undone
		if r.action == "prune" {
			fmt.Fprintf(w, "undone      prune %s: %s back in the vault\n", u.ID, format.Count(u.Records, "file", "files"))
			return
		}
		fmt.Fprintf(w, "undone      restore %s: %s removed\n", u.ID, format.Count(len(u.Removed), "file", "files"))
		for _, k := range u.Kept {
			fmt.Fprintf(w, "  kept %s (changed since the restore)\n", model.SanitizeLine(k))
		}
	case r.sync != nil:
		s := r.sync
		fmt.Fprintf(w, "vault       %s\n", model.SanitizeLine(s.Vault))
		fmt.Fprintf(w, "files       %s: %d new, %d changed, %d unchanged, %d gone from the home (kept)\n", format.Count(s.Files, "file", "files"), s.New, s.Changed, s.Unchanged, s.Gone)
		fmt.Fprintf(w, "read        %s of the home; %s new after dedup, %s written\n", format.Bytes(s.BytesRead), format.Bytes(s.BytesNew), format.Bytes(s.PackBytes))
		printProblems(w, s.Problems)
	case r.action == "list":
		if len(r.list) == 0 {
			fmt.Fprintf(w, "no session in the vault %s\n", model.SanitizeLine(r.dir))
			return
		}
		for _, s := range r.list {
			where := "in the home"
			if !s.InHome {
				where = "LOST from the home"
				if !s.Gone.IsZero() {
					where += ", gone " + s.Gone.In(e.now().Location()).Format("2006-01-02")
				}
			}
			fmt.Fprintf(w, "%s  %s  %s  %s  %s  %s\n", model.SanitizeLine(s.Session), s.ModTime.In(e.now().Location()).Format("2006-01-02 15:04"),
				format.Count(s.Files, "file", "files"), format.Bytes(s.Bytes), model.SanitizeLine(s.Project), where)
		}
	case r.restore != nil:
		s := r.restore
		verb := "wrote"
		if s.DryRun {
			verb = "would write"
		}
		fmt.Fprintf(w, "session     %s into %s\n", model.SanitizeLine(s.Session), model.SanitizeLine(s.To))
		fmt.Fprintf(w, "files       %s %s (%s), %d already there and identical\n", verb, format.Count(s.Written, "file", "files"), format.Bytes(s.Bytes), s.Identical)
		for _, f := range s.Files {
			if f.Status != vault.RestoreIdentical {
				fmt.Fprintf(w, "  %-9s %s\n", f.Status, model.SanitizeLine(f.Path))
			}
		}
		for _, x := range s.Warnings {
			fmt.Fprintf(w, "note        %s\n", x)
		}
		if s.ID != "" {
			fmt.Fprintf(w, "undo        memscope undo (or memscope vault restore --undo %s)\n", s.ID)
		}
	case r.verify != nil:
		s := r.verify
		fmt.Fprintf(w, "vault       %s\n", model.SanitizeLine(s.Vault))
		fmt.Fprintf(w, "checked     %s, %s, %s of %s (%s rebuilt and hashed)\n", format.Count(s.Packs, "pack", "packs"), format.Count(s.Chunks, "chunk", "chunks"), format.Count(s.Versions, "version", "versions"), format.Count(s.Records, "file", "files"), format.Bytes(s.Bytes))
		for _, o := range s.Orphans {
			fmt.Fprintf(w, "leftover    %s (a pack an interrupted sync wrote without its index; nothing refers to it)\n", model.SanitizeLine(o))
		}
		for _, p := range s.State {
			fmt.Fprintf(w, "problem     %s\n", model.SanitizeLine(p.Error()))
		}
		for _, p := range s.Problems {
			fmt.Fprintf(w, "problem     %s\n", model.SanitizeLine(p))
		}
		if s.OK() {
			fmt.Fprintln(w, "result      every chunk and every version hashes as recorded")
		}
	case r.usage != nil:
		u := r.usage
		fmt.Fprintf(w, "vault       %s (%s)\n", model.SanitizeLine(u.Vault), format.Count(u.Sessions, "session", "sessions"))
		for _, k := range u.Kinds {
			fmt.Fprintf(w, "  %-13s %s, %s, %s (all versions %s)\n", k.Kind, format.Count(k.Files, "file", "files"), format.Count(k.Versions, "version", "versions"), format.Bytes(k.Raw), format.Bytes(k.RawAll))
		}
		fmt.Fprintf(w, "kept        %s as files; %s after dedup (%.2f); %s on disk (%.2f of the files)\n", format.Bytes(u.RawAll), format.Bytes(u.Unique), u.Dedup, format.Bytes(u.Stored), u.Ratio)
		fmt.Fprintf(w, "packs       %d, %s\n", u.Packs, format.Count(u.Chunks, "chunk", "chunks"))
		for _, o := range u.Orphans {
			fmt.Fprintf(w, "leftover    %s\n", model.SanitizeLine(o))
		}
	case r.prune != nil:
		p := r.prune
		verb := "dropped"
		if p.DryRun {
			verb = "would drop"
		}
		if r.trashed > 0 {
			fmt.Fprintf(w, "trash       emptied, %s freed\n", format.Bytes(r.trashed))
		}
		fmt.Fprintf(w, "prune       %s %s and %s (%s); %s\n", verb, format.Count(p.Files, "file", "files"), format.Count(p.Versions, "older version", "older versions"), format.Bytes(p.Bytes), format.Count(len(p.Sessions), "session", "sessions"))
		if len(p.Sessions) > 0 {
			fmt.Fprintf(w, "sessions    %s\n", model.SanitizeLine(strings.Join(p.Sessions, ", ")))
		}
		fmt.Fprintf(w, "packs       %s to the trash (%d rewritten without the dropped chunks), %s freed\n", format.Count(p.PacksTrashed, "pack", "packs"), p.PacksRewritten, format.Bytes(p.Freed))
		if p.ID != "" {
			fmt.Fprintf(w, "undo        memscope vault prune --undo %s (until --empty-trash)\n", p.ID)
		}
	default:
		fmt.Fprintf(w, "trash       emptied, %s freed\n", format.Bytes(r.trashed))
	}
}

// printProblems lists files a command could not read.
func printProblems(w io.Writer, probs []model.Problem) {
	if len(probs) == 0 {
		return
	}
	fmt.Fprintf(w, "problems    %d (not kept)\n", len(probs))
	for _, p := range probs {
		fmt.Fprintf(w, "  %s [%s]\n", model.SanitizeLine(p.Error()), p.Kind)
	}
}
