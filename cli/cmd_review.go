package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/memscope/memscope/engine/review"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var reviewCommand = &command{
	name:  "review",
	usage: "memscope review [--project PATH] [--json] [--accept FILE…] [--reject FILE…] [--accept-all]",
	summary: "the review inbox: memories Claude Code wrote or changed since you last reviewed them, newest first, with their origin and the diff since; " +
		"accept marks one reviewed, reject moves it to the trash (journaled: memscope undo puts it back)",
	run: steps(parseReview, runReview, showReview),
}

// reviewOptions are review's flags.
type reviewOptions struct {
	home    homeFlags
	project string
	// accept and reject are memory paths (relative to the memory folder).
	accept, reject fileList
	acceptAll      bool
	force          bool
	json           bool
	cache          cacheFlags
}

// fileList is a flag that may be given more than once, each time with
// one file or a comma-separated list.
type fileList []string

func (l *fileList) String() string { return strings.Join(*l, ",") }

func (l *fileList) Set(s string) error {
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			*l = append(*l, filepath.ToSlash(f))
		}
	}
	return nil
}

var _ flag.Value = (*fileList)(nil)

// reviewResult is the inbox after the actions asked for.
type reviewResult struct {
	inbox    review.Inbox
	accepted []string
	rejected []store.Change
	// acting says actions were asked for (the output reports them).
	acting bool
}

func parseReview(e *env, args []string) (reviewOptions, error) {
	var opts reviewOptions
	fs := newFlags("review", &opts.home, &opts.json)
	opts.cache.add(fs)
	fs.StringVar(&opts.project, "project", "", "project folder (default: the current folder)")
	fs.Var(&opts.accept, "accept", "mark `FILE` reviewed as it is now (a path in the memory folder; repeat or separate with commas)")
	fs.Var(&opts.reject, "reject", "move `FILE` to the memory trash (journaled: memscope undo puts it back; repeat or separate with commas)")
	fs.BoolVar(&opts.acceptAll, "accept-all", false, "mark every memory in the inbox reviewed")
	fs.BoolVar(&opts.force, "force", false, "with --reject: delete even when the security scan would stop the write")
	if err := parseFlagsOnly(e, fs, args); err != nil {
		return opts, err
	}
	for _, a := range opts.accept {
		for _, r := range opts.reject {
			if a == r {
				return opts, badUsagef("%s is both accepted and rejected", a)
			}
		}
	}
	return opts, nil
}

// runReview builds the inbox, applies --accept and --reject, saves the
// state and builds the inbox again.
func runReview(e *env, opts reviewOptions) (reviewResult, error) {
	t, err := openProjectMemory(e, &opts.home, opts.project, "")
	if err != nil {
		return reviewResult{}, err
	}
	defer t.close()
	fsys := t.engine().ReviewFS()
	st, err := review.Load(fsys)
	if err != nil {
		return reviewResult{}, badInput(err)
	}
	// The inbox is built again after the actions: they change memory
	// files, not transcripts, so the second scan reads none.
	cache := e.firstCache(opts.cache, t)
	prov := projectProvenance(t, cache)
	in := review.Build(&prov, st)
	r := reviewResult{inbox: in, acting: opts.acceptAll || len(opts.accept)+len(opts.reject) > 0}
	if !r.acting {
		return r, nil
	}
	if err := t.store.Writable(); err != nil {
		return r, err
	}
	accept := opts.accept
	if opts.acceptAll {
		for _, it := range in.Items {
			accept = append(accept, it.Path)
		}
	}
	for _, p := range append(append([]string{}, accept...), opts.reject...) {
		if in.Find(p) == nil {
			return r, badInput(fmt.Errorf("%s is not in the review inbox: no change of the model's to it waits for review (memscope review lists what does)", p))
		}
	}
	now := e.now()
	var rejectErr error
	if len(opts.reject) > 0 {
		// One change, one journal entry, one undo, however many files:
		// one entry each would push the first ones off the journal.
		ch, err := t.store.DeleteAll(opts.reject, store.WriteOptions{Now: now, Force: opts.force})
		if err != nil {
			rejectErr = fmt.Errorf("reject: %w (nothing was moved)", withForceHint(err))
		} else {
			r.rejected = append(r.rejected, ch)
		}
	}
	if len(accept) > 0 || len(r.rejected) > 0 {
		// Read again, changed and written under the folder's lock, so a
		// memscope accepting at the same time keeps its accepts too.
		st, err = review.Update(t.loc.Dir, fsys, fsys, func(st *review.State) {
			for _, p := range accept {
				st.Accept(p, in.Find(p).Origin.File().Raw(), now)
			}
			if len(r.rejected) > 0 {
				for _, p := range opts.reject {
					delete(st.Files, p)
				}
			}
		})
		if err != nil {
			return r, errors.Join(rejectErr, err)
		}
		r.accepted = accept
	}
	if rejectErr != nil {
		return r, rejectErr
	}
	t.store.Reload()
	prov = projectProvenance(t, cache)
	r.inbox = review.Build(&prov, st)
	return r, nil
}

func showReview(e *env, opts reviewOptions, r reviewResult) error {
	accepted := r.accepted
	if accepted == nil {
		accepted = []string{}
	}
	rejected := r.rejected
	if rejected == nil {
		rejected = []store.Change{}
	}
	v := map[string]any{"memoryDir": r.inbox.Dir, "items": r.inbox.Items, "reviewed": r.inbox.Reviewed, "accepted": accepted, "rejected": rejected}
	return e.output(opts.json, v, func(w io.Writer) { printReview(w, r) })
}

func printReview(w io.Writer, r reviewResult) {
	for _, p := range r.accepted {
		fmt.Fprintf(w, "accepted %s\n", model.SanitizeLine(p))
	}
	for _, ch := range r.rejected {
		fmt.Fprintf(w, "rejected: %s (memscope undo puts it back)\n", model.SanitizeLine(ch.Summary))
	}
	if r.acting {
		fmt.Fprintln(w)
	}
	in := r.inbox
	fmt.Fprintf(w, "review inbox of %s: %s Claude Code wrote or changed since you last reviewed (%d reviewed and unchanged)\n",
		model.SanitizeLine(in.Dir), format.Count(len(in.Items), "memory", "memories"), in.Reviewed)
	for _, it := range in.Items {
		fmt.Fprintf(w, "\n● %-7s %s  %s\n", it.Status, model.SanitizeLine(it.Path), format.Timestamp(it.Time))
		o := it.Origin
		fmt.Fprintf(w, "    last change: %s\n", model.SanitizeLine(o.Last.Text))
		if lw := o.Last.Write; lw != nil && lw.Prompt != nil {
			fmt.Fprintf(w, "    after %q\n", model.SanitizeLine(lw.Prompt.Text))
		}
		if o.Last.Write == nil || o.Created != o.Last.Write {
			fmt.Fprintf(w, "    origin: %s\n", model.SanitizeLine(o.Text))
		}
		if !it.Reviewed.IsZero() {
			fmt.Fprintf(w, "    reviewed %s; changed since:\n", format.Timestamp(it.Reviewed))
		}
		if it.NoDiff != "" {
			fmt.Fprintf(w, "    (no diff: %s)\n", it.NoDiff)
			continue
		}
		for _, l := range strings.Split(strings.TrimRight(it.Diff, "\n"), "\n") {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	if len(in.Items) > 0 {
		fmt.Fprintln(w, "\naccept: memscope review --accept FILE (or --accept-all); reject to the trash: memscope review --reject FILE (memscope undo puts it back)")
	}
}
