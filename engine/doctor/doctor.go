// Package doctor says when a home is newer than memscope: the client
// versions that wrote its transcripts, against the versions memscope's
// formats were checked with, and every record type, attachment type and
// top-level field memscope does not know, with a count and one place it
// was seen (never the content).
package doctor

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// Checked is the range of client versions memscope's formats were checked
// against (FORMATS.md: 2.1.330, 2.1.331, 2.1.332).
var Checked = struct{ Oldest, Newest string }{"2.1.330", "2.1.332"}

// knownList is the one table of what memscope knows of a transcript
// line, as static data: its maps are made at their first use (known).
var knownList = struct {
	records, attachments, fields []string
}{
	records: []string{
		"user", "assistant", "system", "attachment", "summary", "queue-operation", "mode", "permission-mode",
		"file-history-snapshot", "file-history-delta", "last-prompt", "custom-title", "ai-title", "cost-state",
		"tools-used", "api-request", "api-request-shape", "api-request-blob", "agent-name", "tag", "pr-link",
		"worktree-state", "content-replacement", "atis-latch",
	},
	attachments: []string{
		"instructions", "nested_memory", "instruction_files_not_loaded", "hook_success", "hook_non_blocking_error",
		"hook_blocking_error", "hook_additional_context", "hook_cancelled", "hook_stopped_continuation",
		"hook_system_message", "hook_error_during_execution", "hook_permission_decision", "todo_reminder",
		"task_reminder", "deferred_tools_delta", "skill_listing", "plan_mode", "plan_mode_exit", "plan_mode_reentry",
		"date_change", "edited_text_file", "edited_image_file", "file", "directory", "compact_file_reference",
		"selected_lines_in_ide", "opened_file_in_ide", "queued_command", "command_permissions", "diagnostics",
		"critical_system_reminder", "output_style", "token_usage", "budget_usd", "memory", "mcp_resource",
		"agent_mention", "async_hook_response", "structured_output", "dynamic_skill", "invoked_skills",
		"already_read_file", "new_directory", "new_file", "ultramemory", "teammate_mailbox", "team_context",
		"auto_mode", "auto_mode_exit", "agent_listing_delta", "mcp_instructions_delta", "companion_intro",
		"current_session_memory", "relevant_memories", "nested_memory_reminder", "prompt_snapshot", "date",
		"environment", "model", "remote_session_change", "session_context",
	},
	fields: []string{
		"type", "subtype", "uuid", "parentUuid", "logicalParentUuid", "isSidechain", "timestamp", "sessionId", "cwd",
		"version", "gitBranch", "message", "attachment", "content", "isMeta", "level", "compactMetadata",
		"microcompactMetadata", "summarizeMetadata", "isVisibleInTranscriptOnly", "isCompactSummary", "userType",
		"entrypoint", "requestId", "promptId", "permissionMode", "promptSource", "turnOrigin", "turnPosition",
		"toolUseResult", "sourceToolAssistantUUID", "sourceToolUseID", "toolUseID", "agentId", "slug", "operation",
		"mode", "messageId", "snapshot", "isSnapshotUpdate", "snapshotMessageId", "trackingPath", "backup",
		"leafUuid", "lastPrompt", "summary", "customTitle", "aiTitle", "title", "rowSource", "earlierMessages",
		"hookText", "hookTextLead", "isApiErrorMessage", "error", "apiError", "retryInMs", "retryAttempt",
		"maxRetries", "cause", "thinkingMetadata", "todos", "imagePasteIds", "origin", "planContent",
		"isCompactBoundary", "durationMs", "stopReason", "hasOutput", "preventedContinuation", "hookCount",
		"hookInfos", "hookErrors", "toolUseId", "costUSD", "cost", "totalCostUSD", "tools", "shape", "blob",
		"body", "request", "requestShape", "model", "agentName", "tag", "prNumber", "prUrl", "prRepository",
		"worktreeSession", "replacements", "sentAtMs", "toolCallEnded", "refusalRetry", "thread",
		"echoWireToolInputs", "mcpMeta", "isRetry", "interruptedBy", "state", "usage", "display",
		"pastedContents", "project", "rendered", "renderedRole", "renderedBesideToolResult", "hash", "shapeHash",
		"session_id", "atis", "hasUnknownModelCost", "modelUsage", "startTime", "totalAPIDuration",
		"totalAPIDurationWithoutRetries", "totalDuration", "totalLinesAdded", "totalLinesRemoved",
		"totalToolDuration", "apiBlockIndex", "cacheControl", "effort", "id", "keep", "madeBy", "params",
		"perTurnEffort", "promptCacheRequested", "querySource", "requestDigest", "requestRef", "requestedModel",
		"tail", "messageCount", "serverClassifierRequest", "base",
	},
}

// knownTables is knownList's names as sets.
type knownTables struct {
	records, attachments, fields map[string]bool
}

// known is the table, made at its first use (tablesMade says it was):
// a process that reads no transcript with doctor's rules (a `vault
// sync`, a hook, the status line) does not build it, nor knownNames nor
// cacheKind (0.34 ms of package initialisation before: a third of
// memscope's own).
var known = sync.OnceValue(func() knownTables {
	tablesMade.Store(true)
	return knownTables{records: set(knownList.records...), attachments: set(knownList.attachments...), fields: set(knownList.fields...)}
})

// tablesMade is set once known is made (a test's).
var tablesMade atomic.Bool

// knownNameTables are known's tables as jsonscan.Names, which the line
// readers ask (a member's name is looked up without hashing it whole):
// the maps stay the tables knownStamp hashes.
type knownNameTables struct {
	records, attachments, fields *jsonscan.Names
}

// knownNames are the names, made at their first use (a line reader
// keeps them: fileFeed.names).
var knownNames = sync.OnceValue(func() *knownNameTables {
	k := known()
	return &knownNameTables{
		records:     jsonscan.NewNames(slices.Collect(maps.Keys(k.records))...),
		attachments: jsonscan.NewNames(slices.Collect(maps.Keys(k.attachments))...),
		fields:      jsonscan.NewNames(slices.Collect(maps.Keys(k.fields))...),
	}
})

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// UnknownKind says what was not recognised.
type UnknownKind string

// The kinds of unknown.
const (
	UnknownRecord     UnknownKind = "record type"
	UnknownAttachment UnknownKind = "attachment type"
	UnknownField      UnknownKind = "field"
)

// Unknown is one name memscope did not recognise.
type Unknown struct {
	Kind  UnknownKind `json:"kind"`
	Name  string      `json:"name"`
	Count int         `json:"count"`
	// Example is one place it was seen: "<transcript>:<line>".
	Example string `json:"example"`
}

// Version is one client version seen and how many sessions it wrote
// (a session counts once, under the newest version in its transcript).
type Version struct {
	Version  string `json:"version"`
	Sessions int    `json:"sessions"`
}

// Report is what doctor found in a home.
type Report struct {
	CheckedOldest string `json:"checkedOldest"`
	CheckedNewest string `json:"checkedNewest"`
	// Versions are newest first.
	Versions []Version `json:"versions"`
	// Newest is the newest version seen; BeyondChecked says it is newer
	// than CheckedNewest.
	Newest        string    `json:"newest,omitempty"`
	BeyondChecked bool      `json:"beyondChecked"`
	Unknown       []Unknown `json:"unknown"`
	Transcripts   int       `json:"transcripts"`
	Lines         int       `json:"lines"`
	// Malformed counts lines that are not JSON objects (left to the
	// readers that report them with their reasons).
	Malformed int             `json:"malformed"`
	Problems  []model.Problem `json:"problems"`
}

// Scan reads every transcript of the home fsys (main and subagents).
func Scan(home fs.FS) Report { return ScanCached(home, nil, "") }

// fileScan is what doctor reads from one transcript: kept per file across
// runs (diskcache.PerFile's rule), so a home is read again only where a
// transcript changed.
type fileScan struct {
	// Opened says the file could be opened (it counts as a transcript);
	// Problem is set when it could not be opened or read to its end.
	Opened    bool
	Problem   *model.Problem
	Lines     int
	Malformed int
	// Unknown are what the file holds that memscope does not know, in the
	// order first seen, each with the file's count and first place.
	Unknown []Unknown
	// Newest is the newest client version in the file.
	Newest string
}

// cacheKind names doctor's per-file cache; knownStamp follows the tables
// of what memscope knows, so a memscope that knows more reads again
// (made at its first use).
var cacheKind = sync.OnceValue(func() string { return "doctor.1-" + knownStamp() })

// knownStamp is a short hash of the known tables.
func knownStamp() string {
	h := sha256.New()
	t := known()
	for _, m := range []map[string]bool{t.records, t.attachments, t.fields} {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			h.Write([]byte(k + "\x00"))
		}
		h.Write([]byte{1})
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}

// ScanCached is Scan, taking the scans of transcripts unchanged since an
// earlier run from store (nil: read everything) and saving the others;
// homeDir names the home's cache file.
func ScanCached(home fs.FS, store *diskcache.Store, homeDir string) Report {
	r := Report{CheckedOldest: Checked.Oldest, CheckedNewest: Checked.Newest, Versions: []Version{}, Unknown: []Unknown{}, Problems: []model.Problem{}}
	files, probs := model.FindTranscripts(home)
	r.Problems = append(r.Problems, probs...)
	scans := scanFiles(home, files, store, homeDir)
	unknown := map[UnknownKind]map[string]*Unknown{UnknownRecord: {}, UnknownAttachment: {}, UnknownField: {}}
	sessions := map[string]string{} // session → newest version
	for i, fsc := range scans {
		if fsc.Opened {
			r.Transcripts++
		}
		if fsc.Problem != nil {
			r.Problems = append(r.Problems, *fsc.Problem)
		}
		r.Lines += fsc.Lines
		r.Malformed += fsc.Malformed
		for _, u := range fsc.Unknown {
			if seen := unknown[u.Kind][u.Name]; seen != nil {
				seen.Count += u.Count
			} else {
				u := u
				unknown[u.Kind][u.Name] = &u
			}
		}
		if sid := files[i].SessionID; fsc.Newest != "" && sid != "" && Compare(fsc.Newest, sessions[sid]) > 0 {
			sessions[sid] = fsc.Newest
		}
	}
	counts := map[string]int{}
	for _, v := range sessions {
		counts[v]++
	}
	for v, n := range counts {
		r.Versions = append(r.Versions, Version{v, n})
	}
	slices.SortFunc(r.Versions, func(a, b Version) int { return Compare(b.Version, a.Version) })
	if len(r.Versions) > 0 {
		r.Newest = r.Versions[0].Version
		r.BeyondChecked = Compare(r.Newest, Checked.Newest) > 0
	}
	for _, kind := range []UnknownKind{UnknownRecord, UnknownAttachment, UnknownField} {
		for _, u := range unknown[kind] {
			r.Unknown = append(r.Unknown, *u)
		}
	}
	slices.SortStableFunc(r.Unknown, func(a, b Unknown) int {
		return cmp.Or(cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)), cmp.Compare(b.Count, a.Count), strings.Compare(a.Name, b.Name))
	})
	return r
}

// scanFiles scans files, through store when there is one.
func scanFiles(home fs.FS, files []model.TranscriptFile, store *diskcache.Store, homeDir string) []fileScan {
	compute := func(miss []int) []fileScan {
		out := make([]fileScan, len(miss))
		var sc jsonscan.Scanner
		for j, i := range miss {
			out[j] = scanFile(home, files[i].Path, &sc)
		}
		return out
	}
	names := make([]string, len(files))
	for i, t := range files {
		names[i] = t.Path
	}
	if store == nil {
		out, _ := diskcache.PerFile(home, names, nil, nil, compute, nil)
		return out
	}
	name := diskcache.Name(cacheKind(), homeDir)
	cache, _ := diskcache.LoadShared[map[string]diskcache.Entry[fileScan]](store, cacheKind(), name)
	next := map[string]diskcache.Entry[fileScan]{}
	out, hits := diskcache.PerFile(home, names, cache, next, compute, func(f fileScan, _ int64) bool { return f.Opened && f.Problem == nil })
	if hits < len(files) || len(next) != len(cache) {
		// A cache not written costs the next run its time only.
		_ = diskcache.Save(store, cacheKind(), name, next)
	}
	return out
}

// scanFile reads one transcript: its lines, the versions, and what
// memscope does not know (a count and the first place, never content).
func scanFile(home fs.FS, path string, sc *jsonscan.Scanner) fileScan {
	f, err := model.OpenRegular(home, path)
	if err != nil {
		return fileScan{Problem: &model.Problem{File: path, Kind: model.ProblemUnreadable, Reason: err.Error()}}
	}
	defer f.Close()
	fd := newFileFeed(path, sc)
	lr := model.NewLineReader(f)
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		fd.line(line)
	}
	return fd.end(lr.Err())
}

// fileFeed is doctor's reading of one opened transcript, a line at a
// time (scanFile's, and the shared pass's: Feed).
type fileFeed struct {
	path string
	sc   *jsonscan.Scanner
	// names are knownNames, kept for the feed's lines.
	names *knownNameTables
	out   fileScan
	index map[[2]string]int
	// unknownKeys are the line's fields memscope does not know (rare: the
	// known ones are looked up without a copy), reused line after line.
	unknownKeys []string
	// typ, version and attType are the line's (start, member): views of
	// the line for plain strings, so a line costs no allocation.
	typ, version, attType []byte
	memberFn              func(key, val []byte)
	// shapes are what member works out from the names of a line's
	// members, for the line shapes seen last (lineTop).
	shapes jsonscan.ShapeMemo[shapeNames]
	// shapeReads counts the shapes whose names were read (tests).
	shapeReads int
	// walks counts the lines this feed walked itself (line, lineValid):
	// none in the shared pass, which hands it the members another reader
	// walked (lineTop).
	walks int
}

func newFileFeed(path string, sc *jsonscan.Scanner) *fileFeed {
	fd := &fileFeed{path: path, sc: sc, names: knownNames(), out: fileScan{Opened: true}, index: map[[2]string]int{}}
	fd.memberFn = fd.member
	return fd
}

func (fd *fileFeed) note(kind UnknownKind, name, where string) {
	k := [2]string{string(kind), name}
	if i, ok := fd.index[k]; ok {
		fd.out.Unknown[i].Count++
		return
	}
	fd.index[k] = len(fd.out.Unknown)
	fd.out.Unknown = append(fd.out.Unknown, Unknown{Kind: kind, Name: model.SanitizeLine(name), Example: model.SanitizeLine(where), Count: 1})
}

// line reads one line.
func (fd *fileFeed) line(line model.Line) {
	if line.TooLong || len(bytes.TrimSpace(line.Bytes)) == 0 {
		return
	}
	sc := fd.sc
	fd.start()
	fd.walks++
	err := sc.Line(line.Bytes, func(key []byte, v, depth int) (int, error) {
		end, err := sc.Value(v, depth)
		if err != nil {
			return end, err
		}
		fd.member(key, sc.Bytes()[v:end])
		return end, nil
	})
	fd.finish(line, err == nil)
}

// lineValid is line for a line another reader checked whole as JSON
// (valid: one JSON object, jsonscan's rule; homepass.Trusting): its
// members are walked without checking them again.
func (fd *fileFeed) lineValid(line model.Line, valid bool) {
	if line.TooLong || len(bytes.TrimSpace(line.Bytes)) == 0 {
		return
	}
	fd.start()
	if valid {
		fd.walks++
		d := line.Bytes
		jsonscan.EachMember(d[jsonscan.SkipWS(d, 0):], fd.memberFn)
	}
	fd.finish(line, valid)
}

// lineTop is line for a line another reader checked whole and walked
// (top: its members, not Valid when it was not one JSON object): its
// members are read from top, with no walk of the line; what member
// works out from their names alone is worked out once a shape of line
// (jsonscan.Top.Shape), so a line of a shape seen lately costs no
// look-up of its names.
func (fd *fileFeed) lineTop(line model.Line, top *jsonscan.Top) {
	if line.TooLong || len(bytes.TrimSpace(line.Bytes)) == 0 {
		return
	}
	fd.start()
	if id := top.Shape(); id != 0 {
		sh, ok := fd.shapes.Get(id)
		if !ok {
			sh = fd.shapes.Put(id)
			sh.read(top)
			fd.shapeReads++
		}
		fd.unknownKeys = append(fd.unknownKeys, sh.unknown...)
		if sh.typ >= 0 {
			_, v := top.At(sh.typ)
			fd.typ = text(v)
		}
		if sh.version >= 0 {
			_, v := top.At(sh.version)
			fd.version = text(v)
		}
		for _, i := range sh.attachments {
			_, v := top.At(i)
			fd.attachment(v)
		}
	}
	fd.finish(line, top.Valid())
}

// shapeNames is what member works out from the names of a line's
// members: the names memscope does not know, in order (a name as often
// as it is there), the last type and version members and every
// attachment member (indexes; -1 for none).
type shapeNames struct {
	unknown      []string
	typ, version int
	attachments  []int
}

// read works out s from the names of top's members, as member does.
func (s *shapeNames) read(top *jsonscan.Top) {
	s.unknown, s.typ, s.version, s.attachments = s.unknown[:0], -1, -1, s.attachments[:0]
	names := knownNames()
	for i := range top.Len() {
		key, _ := top.At(i)
		if !names.fields.Has(key) {
			s.unknown = append(s.unknown, string(key))
		}
		switch string(key) {
		case "type":
			s.typ = i
		case "version":
			s.version = i
		case "attachment":
			s.attachments = append(s.attachments, i)
		}
	}
}

// The line being read: its record type, version and attachment type.
func (fd *fileFeed) start() {
	fd.typ, fd.version, fd.attType = nil, nil, nil
	fd.unknownKeys = fd.unknownKeys[:0]
}

// member reads one member of the line's object.
func (fd *fileFeed) member(key, val []byte) {
	if !fd.names.fields.Has(key) {
		fd.unknownKeys = append(fd.unknownKeys, string(key))
	}
	switch string(key) {
	case "type":
		fd.typ = text(val)
	case "version":
		fd.version = text(val)
	case "attachment":
		fd.attachment(val)
	}
}

// attachment reads an attachment member's value: its type when it is an
// object.
func (fd *fileFeed) attachment(val []byte) {
	if len(val) > 0 && val[0] == '{' {
		jsonscan.EachMember(val, func(ak, av []byte) {
			if string(ak) == "type" {
				fd.attType = text(av)
			}
		})
	}
}

// text is the text of the string value val as jsonscan.Unquote reads
// it ("" when val is not a string): a view of val for a string of plain
// ASCII with no escape (what a record's type and version are), else
// Unquote's copy.
func text(val []byte) []byte {
	if len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' {
		body := val[1 : len(val)-1]
		plain := true
		for _, c := range body {
			if c < ' ' || c >= utf8.RuneSelf || c == '\\' || c == '"' {
				plain = false
				break
			}
		}
		if plain {
			return body
		}
	}
	t, _ := jsonscan.Unquote(val)
	return []byte(t)
}

// finish counts the line read (ok: one JSON object).
func (fd *fileFeed) finish(line model.Line, ok bool) {
	out := &fd.out
	out.Lines++
	if !ok {
		out.Malformed++
		return
	}
	typ, version, attType := fd.typ, fd.version, fd.attType
	unknownRec := len(typ) > 0 && !fd.names.records.Has(typ)
	unknownAtt := len(attType) > 0 && !fd.names.attachments.Has(attType)
	if unknownRec || unknownAtt || len(fd.unknownKeys) > 0 {
		where := fd.path + ":" + strconv.Itoa(line.Number)
		if unknownRec {
			fd.note(UnknownRecord, string(typ), where)
		}
		if unknownAtt {
			fd.note(UnknownAttachment, string(attType), where)
		}
		for _, k := range fd.unknownKeys {
			fd.note(UnknownField, k, where)
		}
	}
	// The usual line has the newest version seen: no copy to compare.
	if len(version) > 0 && string(version) != out.Newest {
		if v := string(version); Compare(v, out.Newest) > 0 {
			out.Newest = v
		}
	}
}

// end is the file's scan, err the read's error.
func (fd *fileFeed) end(err error) fileScan {
	if err != nil {
		fd.out.Problem = &model.Problem{File: fd.path, Kind: model.ProblemUnreadable, Reason: err.Error()}
	}
	return fd.out
}

func kindRank(k UnknownKind) int {
	switch k {
	case UnknownRecord:
		return 0
	case UnknownAttachment:
		return 1
	}
	return 2
}

// Compare orders client versions ("2.1.332" < "2.1.1000" < "9.9.9") by
// their dot-separated numbers; a part that is not a number compares as
// text after the numbers. "" is older than any version.
func Compare(a, b string) int {
	switch {
	case a == b:
		return 0
	case a == "":
		return -1
	case b == "":
		return 1
	}
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		if i >= len(pa) {
			return -1
		}
		if i >= len(pb) {
			return 1
		}
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		switch {
		case ea == nil && eb == nil:
			if c := cmp.Compare(na, nb); c != 0 {
				return c
			}
		case ea == nil:
			return -1
		case eb == nil:
			return 1
		default:
			if c := strings.Compare(pa[i], pb[i]); c != 0 {
				return c
			}
		}
	}
	return 0
}

// Summary is the report in one line, for Overview: the newest client
// version against the checked range, and how many unknown names.
func (r Report) Summary() string {
	if len(r.Versions) == 0 {
		return "no client version seen (no transcript)"
	}
	s := fmt.Sprintf("client %s (checked %s–%s)", r.Newest, r.CheckedOldest, r.CheckedNewest)
	if r.BeyondChecked {
		s = fmt.Sprintf("client %s is newer than memscope checked (%s–%s)", r.Newest, r.CheckedOldest, r.CheckedNewest)
	}
	if n := len(r.Unknown); n > 0 {
		s += fmt.Sprintf(" · %d unknown name%s in transcripts: memscope doctor", n, map[bool]string{true: "", false: "s"}[n == 1])
	} else {
		s += " · every record known"
	}
	return s
}

// Clean reports whether nothing unknown was seen.
func (r Report) Clean() bool { return len(r.Unknown) == 0 }
