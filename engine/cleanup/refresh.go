package cleanup

import (
	"io/fs"
	"slices"
	"strings"

	"github.com/memscope/memscope/model"
)

// Refresh brings f, built by BuildForecast with o (or by an earlier
// Refresh), up to date as of o.Now after the files at paths (slash-
// separated, relative to the home) changed, reading only those: a
// transcript or session file that grew is looked at again, a memory
// folder counted again, history.jsonl read from where the last read
// stopped; files the forecast does not read (sessions/, settings.json,
// whose settings come in o) are passed over. ok is false when a change
// needs the home read again (a file came or went, a paste or
// file-history change, history rewritten, the sweep turned on or off):
// call BuildForecast. What it returns is what BuildForecast would.
func Refresh(f Forecast, o Options, paths []string) (Forecast, bool) {
	if f.Home != o.Home.Dir || o.Days != nil {
		return f, false
	}
	state, days, from, reason := retentionPeriod(o)
	if state != f.State {
		return f, false
	}
	at := make(map[string]int, len(f.Items))
	for i, it := range f.Items {
		at[it.Path] = i
	}
	items := slices.Clone(f.Items)
	history := false
	memory := map[string]bool{}
	for _, p := range paths {
		parts := strings.Split(p, "/")
		switch {
		case p == model.HistoryPath:
			history = true
			continue
		case len(parts) >= 3 && parts[0] == "projects" && parts[2] == memoryFolder:
			memory[strings.Join(parts[:3], "/")] = true
			continue
		case len(parts) == 3 && parts[0] == "sessions" && parts[2] == "transcript.jsonl":
			// A seed-layout transcript decides whether its session is lost.
			if f.hist != nil && f.hist.lost.changedBy(model.SessionID(parts[1])) {
				return f, false
			}
			continue
		case parts[0] == stateDir && (len(parts) != 2 || !isGrowthTest(parts[1])):
			continue
		case !readsPath(parts[0]):
			continue
		}
		i, ok := at[p]
		if !ok || items[i].Kind != KindTranscript && items[i].Kind != KindSessionFile {
			return f, false
		}
		info, err := fs.Stat(o.Home.FS, p)
		if err != nil || !info.Mode().IsRegular() {
			return f, false
		}
		items[i].Size, items[i].ModTime = info.Size(), info.ModTime()
	}
	if history && f.hist == nil {
		return f, false
	}
	out := f
	out.Now = o.Now
	out.PeriodDays, out.PeriodFrom, out.Reason = days, from, reason
	placeItems(items, out)
	out.Items = items
	out.Totals, out.Overall = retentionTotals(items)
	out.NeverSwept = slices.Clone(f.NeverSwept)
	for dir := range memory {
		i := slices.IndexFunc(out.NeverSwept, func(n NeverSwept) bool { return n.Kind == NeverSweptMemory && n.Path == dir })
		if i < 0 {
			return f, false
		}
		var probs []model.Problem
		files, size := walkFiles(o.Home.FS, dir, &probs, nil)
		if len(probs) > 0 {
			return f, false
		}
		out.NeverSwept[i].Files, out.NeverSwept[i].Size = files, size
	}
	if f.hist == nil {
		out.Problems = forecastProblems(out, o, f.scanProblems, nil)
		return out, true
	}
	hr := &historyRead{tail: model.HistoryTail{State: f.hist.tail.State}, lostPastes: f.hist.lostPastes, lost: f.hist.lost, probs: f.hist.probs}
	d := newDangler(o.Home.FS, items)
	// What the earlier lines refer to stays; its place may have moved
	// with now.
	hr.dangling = make([]DanglingPaste, 0, len(f.hist.dangling))
	for _, dp := range f.hist.dangling {
		it := d.swept[dp.PastePath]
		if it == nil {
			return f, false
		}
		dp.Eligible, dp.DaysLeft, dp.Bucket = it.Eligible, it.DaysLeft, it.Bucket
		hr.dangling = append(hr.dangling, dp)
	}
	if history {
		info, err := fs.Stat(o.Home.FS, model.HistoryPath)
		if err != nil {
			return f, false
		}
		for i := range out.NeverSwept {
			if out.NeverSwept[i].Kind == NeverSweptHistory {
				out.NeverSwept[i].Size = info.Size()
			}
		}
		read, err := hr.tail.Read(o.Home.FS, model.HistoryPath)
		if err != nil || read.Full {
			return f, false
		}
		hr.dangling, hr.lostPastes = d.entries(read.Entries, hr.dangling, slices.Clone(hr.lostPastes))
		hr.lost = hr.lost.clone()
		hr.lost.add(read.Entries)
		hr.probs = append(slices.Clone(hr.probs), read.Problems...)
	}
	var hp []model.Problem
	out.Dangling, out.Lost, hp = hr.finish(o.Home.FS, d)
	out.AlreadyMissing = len(out.Lost.Pastes)
	out.hist = hr
	out.Problems = forecastProblems(out, o, f.scanProblems, hp)
	return out, true
}

// readsPath says the forecast reads what is under the home's top-level
// entry top (besides history.jsonl): the project folders, file history,
// the swept folders, the paste store and memscope's own folder.
func readsPath(top string) bool {
	switch top {
	case "projects", model.FileHistoryDir, model.PasteStoreDir, memscopeHomeDir, imageCacheDir, skillArchivesDir, stateDir:
		return true
	}
	for _, sf := range sweptFolders {
		if sf.dir == top {
			return true
		}
	}
	return false
}
