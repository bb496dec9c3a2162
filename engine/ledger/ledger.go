// Package ledger is the loss ledger: for each compaction of a transcript,
// what the model had before (the user's instructions, the files it read
// and changed, the commands it ran, its open todos, the CLAUDE.md and
// memory files attached) that the summary, the preserved segment and the
// files re-attached after the boundary no longer name. Rules over the
// records, no model; and keeping a lost instruction where the client
// re-reads it every turn (Keep).
package ledger

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/memscope/memscope/engine/extract"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// ScanOptions is how a transcript must be read for the ledger: message
// text and tool inputs kept (the Replay pane's follower reads the same).
var ScanOptions = model.ScanOptions{Content: true, KeepText: true}

// SurviveShare is the part of an instruction's (or todo's) content words
// one sentence of the after-text must hold for it to survive, when the
// after-text does not contain it word for word.
const SurviveShare = 0.6

// commandNameMax is how much of a command's first line the after-text must
// name for the command to survive.
const commandNameMax = 80

// Kind is what a ledger item is.
type Kind string

// The item kinds, in the order the ledger lists them.
const (
	KindRule    Kind = "rule"
	KindFile    Kind = "file"
	KindCommand Kind = "command"
	KindTodo    Kind = "todo"
	KindMemory  Kind = "memory"
)

// Kinds are the item kinds in listing order.
var Kinds = []Kind{KindRule, KindFile, KindCommand, KindTodo, KindMemory}

// idPrefix is the letter of an item id per kind ("r2" is the second rule).
var idPrefix = map[Kind]string{KindRule: "r", KindFile: "f", KindCommand: "c", KindTodo: "t", KindMemory: "m"}

// Item is one thing the model had before a compaction and lost.
type Item struct {
	// ID names the item within its boundary: a kind letter and a number
	// ("r1", "f3"); Ref adds the boundary ("2:r1").
	ID   string `json:"id"`
	Kind Kind   `json:"kind"`
	// Text is the instruction's sentence, the file's path, the command,
	// the todo, or the instruction file's path.
	Text string `json:"text"`
	// Detail is the instruction's rule, a file's operations ("read,
	// edit"), a command's status ("exit 1", "error", "ok"), a todo's
	// status, an instruction file's type.
	Detail string `json:"detail,omitempty"`
	// Line and UUID are the turn the item came from (the latest one).
	Line int    `json:"line"`
	UUID string `json:"uuid"`
}

// MemoryFile is a CLAUDE.md, rules or memory file attached before or after
// a boundary.
type MemoryFile struct {
	Path   string `json:"path"`
	Type   string `json:"type"`
	Before bool   `json:"before"`
	After  bool   `json:"after"`
}

// Boundary is the ledger of one compaction.
type Boundary struct {
	// Index counts the file's compact boundaries from 1.
	Index int    `json:"index"`
	UUID  string `json:"uuid"`
	Line  int    `json:"line"`
	// Time is the boundary record's timestamp (zero when it has none).
	Time       time.Time               `json:"time,omitzero"`
	Compaction timeline.CompactionKind `json:"compaction"`
	Sidechain  bool                    `json:"sidechain,omitempty"`
	PreTokens  *int                    `json:"preTokens"`
	PostTokens *int                    `json:"postTokens"`
	// Had counts what the model had before, per kind; Lost lists what the
	// after-text does not name.
	Had  map[Kind]int `json:"had"`
	Lost []Item       `json:"lost"`
	// Memory lists every instruction file attached before or after.
	Memory []MemoryFile `json:"memory"`
}

// Count is how many items of kind k were lost.
func (b Boundary) Count(k Kind) int {
	n := 0
	for _, it := range b.Lost {
		if it.Kind == k {
			n++
		}
	}
	return n
}

// Item returns the lost item with id ("r1"), or false.
func (b Boundary) Item(id string) (Item, bool) {
	for _, it := range b.Lost {
		if it.ID == id {
			return it, true
		}
	}
	return Item{}, false
}

// Ref is how the CLI and the pane name an item: boundary index and id.
func (b Boundary) Ref(it Item) string { return fmt.Sprintf("%d:%s", b.Index, it.ID) }

// kindWords are each kind's singular and plural for CountsText.
var kindWords = map[Kind][2]string{
	KindRule: {"rule", "rules"}, KindFile: {"file", "files"}, KindCommand: {"command", "commands"},
	KindTodo: {"todo", "todos"}, KindMemory: {"instruction file", "instruction files"},
}

// Words is n items of kind k in words: "1 rule", "12 files".
func Words(k Kind, n int) string {
	w := kindWords[k]
	if n == 1 {
		return fmt.Sprintf("%d %s", n, w[0])
	}
	return fmt.Sprintf("%d %s", n, w[1])
}

// CountsText is the boundary's losses in words: "lost 4 rules, 12 files,
// 31 commands" ("lost nothing" when the after-text names everything).
func (b Boundary) CountsText() string {
	var parts []string
	for _, k := range Kinds {
		if n := b.Count(k); n > 0 {
			parts = append(parts, Words(k, n))
		}
	}
	if len(parts) == 0 {
		return "lost nothing"
	}
	return "lost " + strings.Join(parts, ", ")
}

// Ledger is every compaction of one transcript.
type Ledger struct {
	Path       string     `json:"path"`
	Boundaries []Boundary `json:"boundaries"`
}

// Build computes the ledger of every compact boundary of t (read with
// ScanOptions), in file order. Microcompact boundaries clear tool results
// but keep the conversation, so they have no ledger.
func Build(t *model.Transcript) Ledger { return build(t, false) }

// build is Build; read says t came from the model's transcript reader
// (readLean), so every tool input in it is a value of a line the reader
// checked: it is walked without checking it again (toolUses).
func build(t *model.Transcript, read bool) Ledger {
	l := Ledger{Path: t.Path, Boundaries: []Boundary{}}
	i := 0
	for _, r := range t.Boundaries() {
		if !r.IsCompactBoundary() {
			continue
		}
		i++
		l.Boundaries = append(l.Boundaries, at(t, r, i, read))
	}
	return l
}

// At computes the ledger of compact boundary r, the index-th of its file.
// Before is what a resume from the boundary's old leaf (its
// logicalParentUuid) loaded as the file stood just before it: the records
// since the previous boundary plus what that one kept. After is the
// summary (with the earlier messages it carries), the preserved segment,
// and the attachments written after the boundary before the next turn.
func At(t *model.Transcript, r *model.Record, index int) Boundary { return at(t, r, index, false) }

// at is At; read is build's.
func at(t *model.Transcript, r *model.Record, index int, read bool) Boundary {
	info := timeline.Boundary(t, r)
	b := Boundary{Index: index, UUID: r.UUID, Line: r.Line, Time: r.Timestamp, Compaction: info.Compaction, Sidechain: r.IsSidechain,
		PreTokens: info.PreTokens, PostTokens: info.PostTokens, Had: map[Kind]int{}, Lost: []Item{}, Memory: []MemoryFile{}}
	for _, k := range Kinds {
		b.Had[k] = 0
	}
	before := beforeRecords(t, r)
	after, attached := afterRecords(t, r)
	var at *afterText
	if read {
		room := afterRooms.Get().(*afterRoom)
		defer afterRooms.Put(room)
		at = newAfterTextIn(after, room)
	} else {
		at = newAfterText(after)
	}
	var lost []Item
	lost = append(lost, b.rules(before, at)...)
	uses := toolUses(before, read)
	lost = append(lost, b.files(uses, at)...)
	lost = append(lost, b.commands(uses, toolResults(before), at)...)
	lost = append(lost, b.todos(uses, at)...)
	lost = append(lost, b.memory(before, attached)...)
	n := map[Kind]int{}
	for _, it := range lost {
		n[it.Kind]++
		it.ID = fmt.Sprintf("%s%d", idPrefix[it.Kind], n[it.Kind])
		b.Lost = append(b.Lost, it)
	}
	return b
}

// beforeRecords is what the model had when the compaction started.
func beforeRecords(t *model.Transcript, r *model.Record) []*model.Record {
	if r.LogicalParentUUID != "" && t.Get(r.LogicalParentUUID) != nil {
		res := timeline.ResumeTranscript(t, timeline.ResumeOptions{AtLine: r.Line - 1, Leaf: r.LogicalParentUUID})
		if len(res.Messages) > 0 {
			return res.Messages
		}
	}
	// No link to the old leaf: the records of the same conversation since
	// the previous compact boundary, in file order.
	var out []*model.Record
	for _, x := range t.Records {
		if x.Line >= r.Line {
			break
		}
		if x.IsSidechain != r.IsSidechain || !x.IsChain() {
			continue
		}
		if x.IsCompactBoundary() {
			out = out[:0]
		}
		out = append(out, x)
	}
	return out
}

// afterRecords is what the model has after the boundary: its summary, the
// preserved segment, and (separately) the attachment records written after
// it before the next response.
func afterRecords(t *model.Transcript, r *model.Record) (after, attached []*model.Record) {
	if s := timeline.Summary(t, r); s != nil {
		after = append(after, s)
	}
	if c := r.Compact; c != nil && c.PreservedSegment != nil {
		if seg, err := timeline.PreservedRecords(t, c.PreservedSegment); err == nil {
			after = append(after, seg...)
			for _, x := range seg {
				if x.Type == model.RecordAttachment {
					attached = append(attached, x)
				}
			}
		}
	}
	for _, x := range t.Records {
		if x.Line <= r.Line || x.IsSidechain != r.IsSidechain {
			continue
		}
		if x.Type == model.RecordAssistant || x.IsCompactBoundary() {
			break
		}
		if x.Type == model.RecordAttachment {
			attached = append(attached, x)
		}
	}
	return after, attached
}

// afterText is what the model can still read after the boundary, prepared
// for the survival tests.
type afterText struct {
	raw, norm string
	// grams are norm's four-byte windows, made on the first names.
	grams gramSet
	// sentences are the content words of each sentence of the after-text,
	// made on the first survival test.
	sentences []extract.Terms
	split     bool
}

func newAfterText(after []*model.Record) *afterText { return newAfterTextIn(after, nil) }

// afterRoom is the room of an after-text, kept from one boundary to the
// next by a worker of the home's ledger (afterRooms): its text, the
// normalised copy and the window table, which for a preserved segment
// are megabytes, are written over instead of allocated again. An
// after-text made in a room is used only while its boundary's ledger is
// made: nothing it holds outlives at (the items' texts come from the
// records).
type afterRoom struct {
	raw, norm []byte
	bits      []uint64
}

// afterRooms are the rooms of the home's workers.
var afterRooms = sync.Pool{New: func() any { return new(afterRoom) }}

// newAfterTextIn is the after-text of after, made in room (nil: in
// memory of its own).
func newAfterTextIn(after []*model.Record, room *afterRoom) *afterText {
	var b []byte
	if room != nil {
		b = slices.Grow(room.raw[:0], afterTextLen(after))
	} else {
		b = make([]byte, 0, afterTextLen(after))
	}
	b = appendAfter(b, after)
	if room != nil {
		room.raw = b
	}
	s := bytesString(b) // never written again while the after-text lives
	if n, g, ok := normalizeGramsASCIIIn(s, room); ok {
		return &afterText{raw: s, norm: n, grams: g}
	}
	return &afterText{raw: s, norm: normalize(s)}
}

// appendAfter appends the text of after to b: each earlier message's
// text, each content block's text and input, each followed by a newline.
func appendAfter(b []byte, after []*model.Record) []byte {
	for _, r := range after {
		for _, m := range r.EarlierMessages {
			b = append(append(b, m.Text...), '\n')
		}
		if r.Message == nil {
			continue
		}
		for _, blk := range r.Message.Content {
			b = append(append(b, blk.Text...), '\n')
			b = append(append(b, blk.Input...), '\n')
		}
	}
	return b
}

// afterTextLen is the length of newAfterText's text of after, so it is
// made in one allocation (a preserved segment can be megabytes).
func afterTextLen(after []*model.Record) int {
	n := 0
	for _, r := range after {
		for _, m := range r.EarlierMessages {
			n += len(m.Text) + 1
		}
		if r.Message == nil {
			continue
		}
		for _, blk := range r.Message.Content {
			n += len(blk.Text) + len(blk.Input) + 2
		}
	}
	return n
}

// splitSentences cuts the after-text after ".", "!" or "?" followed by
// white space, and at line breaks, and keeps each piece's content words.
func (a *afterText) splitSentences() {
	a.split = true
	start := 0
	cut := func(end int) {
		if terms := extract.TermsOf(a.raw[start:end]); len(terms) > 0 {
			a.sentences = append(a.sentences, terms)
		}
		start = end + 1
	}
	for i := 0; i < len(a.raw); i++ {
		switch c := a.raw[i]; {
		case c == '\n':
			cut(i)
		case (c == '.' || c == '!' || c == '?') && (i+1 == len(a.raw) || a.raw[i+1] == ' ' || a.raw[i+1] == '\t'):
			cut(i)
		}
	}
	if start < len(a.raw) {
		cut(len(a.raw))
	}
}

// normalize lower-cases s and folds white space, so containment ignores
// case and line breaks: strings.Fields of the lower-cased text joined by
// single spaces, made in one pass (it runs on every summary).
func normalize(s string) string {
	if normal(s) {
		return s
	}
	if n, ok := normalizeASCII(s); ok {
		return n
	}
	s = strings.ToLower(s)
	b := make([]byte, 0, len(s))
	gap := false // white space since the last word
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				gap = true
			} else {
				if gap && len(b) > 0 {
					b = append(b, ' ')
				}
				gap = false
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			gap = true
		} else {
			if gap && len(b) > 0 {
				b = append(b, ' ')
			}
			gap = false
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return bytesString(b)
}

// normalizeASCII is normalize of ASCII text in one pass, without the
// lower-cased copy (strings.ToLower maps A-Z only in ASCII text); false,
// as soon as it meets a byte above 0x7F, for text that is not ASCII.
func normalizeASCII(s string) (string, bool) {
	b := make([]byte, 0, len(s))
	gap := false // white space since the last word
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			return "", false
		case asciiSpace[c]:
			gap = true
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		if gap && len(b) > 0 {
			b = append(b, ' ')
		}
		gap = false
		b = append(b, c)
	}
	return bytesString(b), true
}

// bytesString is b as a string without a copy: for a buffer made to be
// returned as one and never written again (as strings.Builder does).
func bytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// normal reports whether s is its own normalize: ASCII without capitals
// or white space but single spaces between words (most paths and
// commands), so it needs no copy.
func normal(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf || 'A' <= c && c <= 'Z':
			return false
		case asciiSpace[c] && (c != ' ' || i == 0 || i == len(s)-1 || s[i-1] == ' '):
			return false
		}
	}
	return true
}

// asciiSpace are the ASCII bytes unicode.IsSpace calls white space.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// names reports whether the after-text contains s (normalised).
func (a *afterText) names(s string) bool {
	n := normalize(s)
	return n != "" && a.holds(n)
}

// survives is the test for instructions and todos: the after-text contains
// the sentence (normalised: lower case, white space folded), or one
// sentence of it holds at least SurviveShare of the sentence's content
// words (extract.TermsOf: stemmed, stop words out, negations kept).
func (a *afterText) survives(s string) bool { return a.survivesNorm(s, normalize(s)) }

// survivesNorm is survives of s whose normalize is n.
func (a *afterText) survivesNorm(s, n string) bool {
	if n != "" && a.holds(n) {
		return true
	}
	if !a.split {
		a.splitSentences()
	}
	terms := extract.TermsOf(s)
	if len(terms) == 0 {
		return false
	}
	for _, sent := range a.sentences {
		if terms.Share(sent) >= SurviveShare {
			return true
		}
	}
	return false
}

// rules lists the instructions in the user's messages before the boundary
// that do not survive.
func (b *Boundary) rules(before []*model.Record, at *afterText) []Item {
	var out []Item
	seen := map[string]int{}
	for _, r := range before {
		text, skip := extract.PromptText(r)
		if skip != "" {
			continue
		}
		for _, in := range extract.Instructions(text) {
			key := normalize(in.Sentence)
			if _, dup := seen[key]; !dup {
				b.Had[KindRule]++
			}
			if at.survivesNorm(in.Sentence, key) {
				continue
			}
			it := Item{Kind: KindRule, Text: in.Sentence, Detail: in.Reason, Line: r.Line, UUID: r.UUID}
			if i, dup := seen[key]; dup {
				if i >= 0 {
					out[i] = it
				}
				continue
			}
			seen[key] = len(out)
			out = append(out, it)
		}
	}
	return out
}

// toolUse is one tool call of the before-records, with its result.
type toolUse struct {
	rec   *model.Record
	name  string
	input map[string]json.RawMessage
	id    string
}

// ledgerTools are the tools whose calls the ledger reads.
var ledgerTools = map[string]bool{"Read": true, "Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true, "Bash": true, "TodoWrite": true}

// toolUses lists the calls of ledgerTools in records, in order. read
// says the inputs are values of lines the model's reader checked
// (build's): their members are then walked without a second check.
func toolUses(rs []*model.Record, read bool) []toolUse {
	var out []toolUse
	var js jsonscan.Scanner
	for _, r := range rs {
		if r.Type != model.RecordAssistant || r.Message == nil {
			continue
		}
		for _, blk := range r.Message.Content {
			if blk.Type != model.BlockToolUse || !ledgerTools[blk.Name] {
				continue
			}
			var in map[string]json.RawMessage
			if read {
				in = checkedInputMembers(blk.Input)
			} else {
				in = inputMembers(&js, blk.Input)
			}
			out = append(out, toolUse{rec: r, name: blk.Name, input: in, id: blk.ID})
		}
	}
	return out
}

// inputMembers is a tool input's members as json.Unmarshal into a
// map[string]json.RawMessage gives them (nil unless input is a valid
// object; the last of a repeated name), read without reflection.
func inputMembers(js *jsonscan.Scanner, input string) map[string]json.RawMessage {
	inputChecks.Add(1)
	in := map[string]json.RawMessage{}
	if js.Members([]byte(input), func(key, val []byte) { addMember(in, key, val) }) != nil {
		return nil
	}
	return in
}

// inputChecks counts the tool inputs inputMembers checked (tests: the
// home's ledger checks none again).
var inputChecks atomic.Int64

// checkedInputMembers is inputMembers of an input the model's reader
// checked (a JSON value as written in a valid line, with no white space
// around it): its members are walked without checking it again, and
// without copying it (the values share the input's bytes, which nothing
// writes).
func checkedInputMembers(input string) map[string]json.RawMessage {
	if len(input) == 0 || input[0] != '{' {
		return nil // a value that is not an object: Members' ErrNotObject
	}
	in := map[string]json.RawMessage{}
	jsonscan.EachMember(unsafe.Slice(unsafe.StringData(input), len(input)), func(key, val []byte) { addMember(in, key, val) })
	return in
}

// addMember keeps one member of a tool input as json.Unmarshal into a
// map[string]json.RawMessage does (a name that is not UTF-8 read with
// U+FFFD per bad byte; the last of a repeated name).
func addMember(in map[string]json.RawMessage, key, val []byte) {
	k := string(key)
	if !utf8.ValidString(k) {
		k, _ = jsonscan.Unquote([]byte(`"` + k + `"`))
	}
	in[k] = val
}

// str is the input's member key as a string ("" when it is not one).
func (u toolUse) str(key string) string {
	s, _ := jsonscan.Unquote(u.input[key])
	return s
}

// fileOps are the tools that name a file, with the word the ledger uses.
var fileOps = map[string]string{"Read": "read", "Write": "write", "Edit": "edit", "MultiEdit": "edit", "NotebookEdit": "edit"}

// files lists the files read or changed before the boundary that the
// after-text names neither by path nor by base name.
func (b *Boundary) files(uses []toolUse, at *afterText) []Item {
	type file struct {
		it  Item
		ops []string
	}
	var order []string
	byPath := map[string]*file{}
	for _, u := range uses {
		op, ok := fileOps[u.name]
		if !ok {
			continue
		}
		p := u.str("file_path")
		if p == "" {
			p = u.str("notebook_path")
		}
		if p == "" {
			continue
		}
		f := byPath[p]
		if f == nil {
			f = &file{}
			byPath[p] = f
			order = append(order, p)
		}
		f.it = Item{Kind: KindFile, Text: p, Line: u.rec.Line, UUID: u.rec.UUID}
		if !slices.Contains(f.ops, op) {
			f.ops = append(f.ops, op)
		}
	}
	b.Had[KindFile] = len(order)
	sort.SliceStable(order, func(i, j int) bool { return byPath[order[i]].it.Line < byPath[order[j]].it.Line })
	var out []Item
	for _, p := range order {
		if at.namesFile(p) {
			continue
		}
		f := byPath[p]
		f.it.Detail = strings.Join(f.ops, ", ")
		out = append(out, f.it)
	}
	return out
}

// namesFile reports whether the after-text names the file at path p: its
// path or its base name (baseName). It searches for the base name alone:
// the base is a suffix of the path after a separator, so the normalised
// base is a part of the normalised path, and a text that holds the path
// holds the base. Only a base that normalises to nothing (white space)
// leaves the path to search.
func (a *afterText) namesFile(p string) bool {
	base := baseName(p)
	if n := normalize(base); base == p || n != "" {
		return n != "" && a.holds(n)
	}
	return a.names(p)
}

// baseName is a path's last element when it is specific enough to name
// the file (four characters or more), else the whole path.
func baseName(p string) string {
	i := strings.LastIndexAny(p, `/\`)
	if base := p[i+1:]; len(base) >= 4 {
		return base
	}
	return p
}

// exitWords open the shell's "Exit code N" in a Bash result: the only
// text of a result the ledger reads (the lean reader's ResultNeeds).
const exitWords = "Exit code"

// exitCode is the shell's "Exit code N" in a Bash result.
var exitCode = regexp.MustCompile(exitWords + ` (\d+)`)

// commands lists the Bash commands run before the boundary, with their
// status, that the after-text does not name (the first line of the
// command, up to 80 characters).
func (b *Boundary) commands(uses []toolUse, results map[string]*model.ContentBlock, at *afterText) []Item {
	var out []Item
	for _, u := range uses {
		if u.name != "Bash" {
			continue
		}
		cmd := strings.TrimSpace(u.str("command"))
		if cmd == "" {
			continue
		}
		b.Had[KindCommand]++
		if at.names(commandName(cmd)) {
			continue
		}
		out = append(out, Item{Kind: KindCommand, Text: cmd, Detail: status(results[u.id]), Line: u.rec.Line, UUID: u.rec.UUID})
	}
	return out
}

// commandName is the part of a command the after-text must name.
func commandName(cmd string) string {
	if i := strings.IndexByte(cmd, '\n'); i >= 0 {
		cmd = cmd[:i]
	}
	if r := []rune(cmd); len(r) > commandNameMax {
		cmd = string(r[:commandNameMax])
	}
	return cmd
}

// toolResults maps tool_use ids to their result blocks.
func toolResults(rs []*model.Record) map[string]*model.ContentBlock {
	out := map[string]*model.ContentBlock{}
	for _, r := range rs {
		if r.Type != model.RecordUser || r.Message == nil {
			continue
		}
		for i := range r.Message.Content {
			if blk := &r.Message.Content[i]; blk.Type == model.BlockToolResult && blk.ToolUseID != "" {
				out[blk.ToolUseID] = blk
			}
		}
	}
	return out
}

// status is a Bash result's outcome: "exit N" when the shell said so,
// "error" for another failed call, "ok", or "no result".
func status(res *model.ContentBlock) string {
	switch {
	case res == nil:
		return "no result"
	case exitCode.MatchString(res.Text):
		return "exit " + exitCode.FindStringSubmatch(res.Text)[1]
	case res.IsError:
		return "error"
	}
	return "ok"
}

// todo is one item of a TodoWrite call.
type todo struct {
	Content string `json:"content"`
	Status  string `json:"status"`
}

// todos lists the open items of the last TodoWrite before the boundary
// that do not survive (the instructions' test).
func (b *Boundary) todos(uses []toolUse, at *afterText) []Item {
	var last *toolUse
	for i := range uses {
		if uses[i].name == "TodoWrite" {
			last = &uses[i]
		}
	}
	if last == nil {
		return nil
	}
	var list []todo
	if json.Unmarshal(last.input["todos"], &list) != nil {
		return nil
	}
	var out []Item
	for _, td := range list {
		if td.Status == "completed" || strings.TrimSpace(td.Content) == "" {
			continue
		}
		b.Had[KindTodo]++
		if at.survives(td.Content) {
			continue
		}
		out = append(out, Item{Kind: KindTodo, Text: td.Content, Detail: td.Status, Line: last.rec.Line, UUID: last.rec.UUID})
	}
	return out
}

// memory compares the instruction files attached before the boundary with
// those re-attached after it; a file attached before and not after is
// lost.
func (b *Boundary) memory(before, attached []*model.Record) []Item {
	idx := map[string]int{}
	var src = map[string]*model.Record{}
	add := func(rs []*model.Record, after bool) {
		for _, r := range rs {
			if r.Type != model.RecordAttachment || (r.AttachmentType != model.AttachmentInstructions && r.AttachmentType != model.AttachmentNestedMemory) {
				continue
			}
			for _, f := range r.AttachmentFiles {
				i, ok := idx[f.Path]
				if !ok {
					i = len(b.Memory)
					idx[f.Path] = i
					b.Memory = append(b.Memory, MemoryFile{Path: f.Path, Type: f.Type})
				}
				if after {
					b.Memory[i].After = true
				} else {
					b.Memory[i].Before = true
					src[f.Path] = r
				}
			}
		}
	}
	add(before, false)
	add(attached, true)
	var out []Item
	for _, m := range b.Memory {
		if !m.Before {
			continue
		}
		b.Had[KindMemory]++
		if m.After {
			continue
		}
		r := src[m.Path]
		out = append(out, Item{Kind: KindMemory, Text: m.Path, Detail: m.Type, Line: r.Line, UUID: r.UUID})
	}
	return out
}

// Short is the item's text on one line (white space folded, terminal
// controls stripped), cut to max runes with "…": what a list row shows.
func (it Item) Short(max int) string {
	s := strings.Join(strings.Fields(model.SanitizeForTerminal(it.Text)), " ")
	if r := []rune(s); max > 1 && len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

// Of is the ledger of the compact boundary of t with uuid (or, for one
// without a uuid, at line); false when there is none.
func Of(t *model.Transcript, uuid string, line int) (Boundary, bool) {
	i := 0
	for _, r := range t.Boundaries() {
		if !r.IsCompactBoundary() {
			continue
		}
		i++
		if (uuid != "" && r.UUID == uuid) || (uuid == "" && r.Line == line) {
			return At(t, r, i), true
		}
	}
	return Boundary{}, false
}
