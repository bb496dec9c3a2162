package model

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
	"time"
	"unicode/utf8"
)

// sameEntry compares entries, timestamps by instant (parsed offsets give
// distinct *time.Location values).
func sameEntry(a, b HistoryEntry) bool {
	if !a.Timestamp.Equal(b.Timestamp) {
		return false
	}
	a.Timestamp, b.Timestamp = time.Time{}, time.Time{}
	return reflect.DeepEqual(a, b)
}

// encodeHistoryEntry writes e back as a history line in its own layout.
func encodeHistoryEntry(e HistoryEntry) []byte {
	line := map[string]any{}
	pastes := map[string]any{}
	var list []any
	for _, p := range e.SortedPastes() {
		m := map[string]any{"id": int(p.ID), "type": string(p.Kind)}
		if p.Inline {
			m["content"] = p.Content
		}
		if p.Hash != "" {
			m["contentHash"] = string(p.Hash)
		}
		if p.MediaType != "" {
			m["mediaType"] = p.MediaType
		}
		if p.Filename != "" {
			m["filename"] = p.Filename
		}
		pastes[strconv.Itoa(int(p.ID))] = m
		list = append(list, m)
	}
	if e.Format == HistoryFormatSeed {
		line["prompt"], line["projectName"] = e.Display, e.Project
		if list != nil {
			line["pastedContent"] = list
		}
	} else {
		line["display"], line["project"], line["pastedContents"] = e.Display, e.Project, pastes
	}
	if e.SessionID != "" {
		line["sessionId"] = string(e.SessionID)
	}
	if !e.Timestamp.IsZero() {
		line["timestamp"] = e.Timestamp.Format(time.RFC3339Nano)
	}
	b, _ := json.Marshal(line)
	return b
}

func FuzzHistoryLine(f *testing.F) {
	f.Add([]byte(`{"display":"[Pasted text #1 +39 lines] x","pastedContents":{"1":{"id":1,"type":"text","contentHash":"6726f7554468d737"}},"timestamp":1795345790406,"project":"/home/me/app","sessionId":"s"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		slow, slowErr := decodeHistoryLine(line, 1)
		fast, ok := fastHistoryLine(line, 1, map[string]string{})
		if ok {
			if slowErr != nil {
				t.Fatalf("fast path accepted what encoding/json rejects (%v)", slowErr)
			}
			if !sameEntry(fast, slow) {
				t.Fatalf("fast path differs:\nfast %+v\nslow %+v", fast, slow)
			}
		}
		e, err := ParseHistoryLine(line, 1)
		if (err != nil) != (slowErr != nil) {
			t.Fatalf("ParseHistoryLine err %v, encoding/json err %v", err, slowErr)
		}
		var got []*HistoryEntry
		probs, rerr := ScanHistory(bytes.NewReader(append(bytes.Clone(line), '\n')), "h", func(e *HistoryEntry) { got = append(got, e) })
		if rerr != nil {
			t.Fatal(rerr)
		}
		if bytes.IndexByte(line, '\n') < 0 && len(bytes.TrimSpace(bytes.TrimPrefix(line, utf8BOM))) > 0 && len(got)+len(probs) == 0 {
			t.Fatal("a non-blank line was neither read nor reported")
		}
		if err != nil {
			return
		}
		if !utf8.ValidString(e.Display) || !utf8.ValidString(e.Project) {
			t.Fatal("decoded text is not valid UTF-8")
		}
		again, err := ParseHistoryLine(encodeHistoryEntry(e), 1)
		if err != nil {
			t.Fatalf("re-encoded entry does not parse: %v", err)
		}
		if !sameEntry(e, again) {
			t.Fatalf("round trip changed the entry:\n%+v\n%+v", e, again)
		}
	})
}

func FuzzHistoryPlaceholders(f *testing.F) {
	f.Add("[Pasted text #1 +39 lines] summarize [Image #2]")
	f.Fuzz(func(t *testing.T, display string) {
		phs := ParsePlaceholders(display)
		end := 0
		for _, p := range phs {
			if p.Start < end || p.End <= p.Start || p.End > len(display) {
				t.Fatalf("bad span %+v after %d in %d bytes", p, end, len(display))
			}
			end = p.End
			text := display[p.Start:p.End]
			if text[0] != '[' || text[len(text)-1] != ']' {
				t.Fatalf("span %q is not bracketed", text)
			}
			alone := ParsePlaceholders(text)
			if len(alone) != 1 || alone[0].Start != 0 || alone[0].End != len(text) || alone[0].Kind != p.Kind || alone[0].ID != p.ID || alone[0].Lines != p.Lines {
				t.Fatalf("%q alone parses as %+v, in context as %+v", text, alone, p)
			}
			canon := ParsePlaceholders(p.String())
			if len(canon) != 1 || canon[0].Kind != p.Kind || canon[0].ID != p.ID || canon[0].Lines != p.Lines || canon[0].End != len(p.String()) {
				t.Fatalf("String() %q does not parse back to %+v: %+v", p.String(), p, canon)
			}
		}
	})
}

// encodeFileHistoryRecord writes r back in the transcript's shape.
func encodeFileHistoryRecord(r FileHistoryRecord) []byte {
	enc := func(b FileBackup) map[string]any {
		m := map[string]any{"version": b.Version, "realParentDir": b.RealParentDir, "backupFileName": nil}
		if !b.FileAbsent {
			m["backupFileName"] = b.BackupFileName
		}
		if !b.BackupTime.IsZero() {
			m["backupTime"] = b.BackupTime.Format(time.RFC3339Nano)
		}
		return m
	}
	ts := ""
	if !r.Timestamp.IsZero() {
		ts = r.Timestamp.Format(time.RFC3339Nano)
	}
	line := map[string]any{"type": string(r.Kind), "messageId": r.MessageID}
	if r.Kind == FileHistorySnapshotRecord {
		files := map[string]any{}
		for p, b := range r.Files {
			files[p] = enc(b)
		}
		line["snapshot"] = map[string]any{"messageId": r.MessageID, "trackedFileBackups": files, "timestamp": ts}
		line["isSnapshotUpdate"] = r.IsSnapshotUpdate
	} else {
		line["snapshotMessageId"], line["trackingPath"], line["backup"], line["timestamp"] = r.SnapshotMessageID, r.TrackingPath, enc(r.Backup), ts
	}
	b, _ := json.Marshal(line)
	return b
}

func sameBackup(a, b FileBackup) bool {
	if !a.BackupTime.Equal(b.BackupTime) {
		return false
	}
	a.BackupTime, b.BackupTime = time.Time{}, time.Time{}
	return a == b
}

func sameFileHistoryRecord(a, b FileHistoryRecord) bool {
	if !a.Timestamp.Equal(b.Timestamp) || !sameBackup(a.Backup, b.Backup) || len(a.Files) != len(b.Files) {
		return false
	}
	for p, fa := range a.Files {
		if fb, ok := b.Files[p]; !ok || !sameBackup(fa, fb) {
			return false
		}
	}
	a.Timestamp, b.Timestamp, a.Backup, b.Backup, a.Files, b.Files = time.Time{}, time.Time{}, FileBackup{}, FileBackup{}, nil, nil
	return reflect.DeepEqual(a, b)
}

func FuzzFileHistoryRecord(f *testing.F) {
	f.Add([]byte(`{"type":"file-history-delta","messageId":"a","snapshotMessageId":"u","trackingPath":"README.md","backup":{"backupFileName":null,"version":1}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		r, ok, err := ParseFileHistoryRecord(line)
		if err != nil && ok {
			t.Fatal("ok with an error")
		}
		if !ok {
			return
		}
		if r.MessageID == "" || r.Kind != FileHistorySnapshotRecord && r.Kind != FileHistoryDeltaRecord {
			t.Fatalf("accepted record without id or kind: %+v", r)
		}
		again, ok2, err := ParseFileHistoryRecord(encodeFileHistoryRecord(r))
		if !ok2 || err != nil || !sameFileHistoryRecord(r, again) {
			t.Fatalf("round trip: %+v\n-> %+v (%v)", r, again, err)
		}
		h := BuildFileHistory([]FileHistoryRecord{r, r})
		target := r.MessageID
		if r.Kind == FileHistoryDeltaRecord {
			target = r.SnapshotMessageID
		}
		if len(h.Snapshots) != 1 {
			t.Fatalf("one record twice gave %d snapshots", len(h.Snapshots))
		}
		steps, err := h.RestorePlan("s", target, "/cwd")
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range steps {
			if st.Action == RestoreLeave {
				t.Fatalf("every tracked file of the target has an entry: %+v", st)
			}
		}
	})
}
