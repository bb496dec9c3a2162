package model

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/memscope/memscope/internal/jsonscan"
)

// decodeAttachment reads attachment.type and the files an attachment
// carries: a "files" array of {path, type, content}, or a top-level path
// and content, where content is the text or (nested_memory) an object
// {type, globs, content, rawContent, …}.
func (d *recordDecoder) decodeAttachment(r *Record, v []byte) {
	r.AttachmentBytes, r.AttachmentChars = len(v), d.units(v)
	if v[0] != '{' {
		return
	}
	var single AttachmentFile
	var hasContent bool
	jsonscan.EachMember(v, func(key, val []byte) {
		switch string(key) {
		case "type":
			r.AttachmentType = d.interned(val)
		case "path":
			single.Path = d.str(val)
		case "replacesPath":
			single.ReplacesPath = d.str(val)
		case "content":
			switch val[0] {
			case '"':
				hasContent = true
				d.attachmentText(&single, val)
			case '{':
				hasContent = true
				d.nestedContent(&single, val)
			}
		case "files":
			if val[0] != '[' {
				return
			}
			jsonscan.EachElement(val, func(el []byte) {
				if el[0] != '{' {
					return
				}
				var f AttachmentFile
				var text []byte
				jsonscan.EachMember(el, func(key, val []byte) {
					switch string(key) {
					case "path":
						f.Path = d.str(val)
					case "type":
						f.Type = d.interned(val)
					case "content":
						text = val
					}
				})
				if text != nil {
					d.attachmentText(&f, text)
				}
				r.AttachmentFiles = append(r.AttachmentFiles, f)
			})
		}
	})
	if single.Path != "" && hasContent {
		r.AttachmentFiles = append(r.AttachmentFiles, single)
	}
}

// attachmentText sizes a file's content (a raw JSON string) and keeps the
// text of a memory file when asked to. f.Type must be set first.
func (d *recordDecoder) attachmentText(f *AttachmentFile, v []byte) {
	if len(v) == 0 || v[0] != '"' {
		return
	}
	f.Bytes, f.Chars = d.strSize(v)
	if d.opts.MemoryText && f.IsMemory() {
		f.Text = d.str(v)
	}
}

// nestedContent reads a nested_memory's content object: whose file it is
// (type), its globs, and its size (content as sent, else rawContent).
func (d *recordDecoder) nestedContent(f *AttachmentFile, v []byte) {
	var text, raw []byte
	jsonscan.EachMember(v, func(key, val []byte) {
		switch string(key) {
		case "type":
			f.Type = d.interned(val)
		case "globs":
			if val[0] == '[' {
				jsonscan.EachElement(val, func(el []byte) {
					if g, ok := rawString(el, nil); ok {
						f.Globs = append(f.Globs, g)
					}
				})
			}
		case "content":
			text = val
		case "rawContent":
			raw = val
		}
	})
	if text == nil || text[0] != '"' {
		text = raw
	}
	d.attachmentText(f, text)
}

func (d *recordDecoder) decodeMessage(v []byte) {
	if v[0] != '{' {
		if string(v) != "null" {
			d.fieldProblem("message is not an object")
		}
		return
	}
	m := new(Message)
	d.cur.msgOut = m
	d.cur.rec.Message = m
	jsonscan.EachMember(v, d.msgFn) // v was validated with the line
}

func (d *recordDecoder) messageMember(key, val []byte) {
	m := d.cur.msgOut
	switch string(key) {
	case "role":
		m.Role = d.interned(val)
	case "id":
		m.ID = d.str(val)
	case "model":
		m.Model = d.interned(val)
	case "usage":
		if val[0] == '{' {
			d.usageRewalks++
			u, ok := plainUsage(val)
			d.setUsage(val, u, ok)
		}
	case "content":
		d.decodeContent(m, val)
	}
}

// usageJSON is message.usage as decoded: the counts, and what pricing
// needs besides them (the 1-hour cache writes, speed "fast").
type usageJSON struct {
	Usage
	CacheCreation struct {
		Ephemeral1h int64 `json:"ephemeral_1h_input_tokens"`
	} `json:"cache_creation"`
	Speed fastSpeed `json:"speed"`
}

// usageKeys are the members of message.usage that usageJSON takes.
var usageKeys = [...]string{"input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "cache_creation", "speed"}

// OddUsageKey reports whether key, a member of message.usage, is not one
// of the members the reader takes as written, but json.Unmarshal would
// still match it to one (it ignores case: "Input_Tokens", "ſpeed"). A
// reader that reads usage on its own leaves such a line to this one.
func OddUsageKey(key []byte) bool {
	for _, k := range usageKeys {
		if string(key) != k && strings.EqualFold(string(key), k) {
			return true
		}
	}
	return false
}

// plainUsage reads message.usage v (a valid object) without
// json.Unmarshal when it is plain: the counts written as integers (or
// null), cache_creation an object (or null) whose ephemeral_1h count is,
// no key json.Unmarshal would match by case alone. Otherwise it says no,
// and json.Unmarshal reads it (and says what is wrong).
func plainUsage(v []byte) (*usageJSON, bool) {
	r := usageReader{u: new(usageJSON), ok: true}
	jsonscan.EachMember(v, func(key, val []byte) {
		if string(key) == "cache_creation" && val[0] == '{' {
			jsonscan.EachMember(val, r.cacheMember)
			return
		}
		r.member(key, val)
	})
	return r.u, r.ok
}

// usageReader is plainUsage's reading of one message.usage, member by
// member: by plainUsage after the line's check, or in the line's walk
// (usageWalk). ok turns false at the first member json.Unmarshal must
// read.
type usageReader struct {
	u  *usageJSON
	ok bool
}

// member reads one member of usage; a cache_creation object is read by
// cacheMember, member by member, instead.
func (r *usageReader) member(key, val []byte) {
	u := r.u
	switch string(key) {
	case "input_tokens":
		r.ok = r.ok && plainInt(&u.InputTokens, val)
	case "output_tokens":
		r.ok = r.ok && plainInt(&u.OutputTokens, val)
	case "cache_creation_input_tokens":
		r.ok = r.ok && plainInt(&u.CacheCreationInputTokens, val)
	case "cache_read_input_tokens":
		r.ok = r.ok && plainInt(&u.CacheReadInputTokens, val)
	case "speed":
		_ = u.Speed.UnmarshalJSON(val)
	case "cache_creation":
		if val[0] != 'n' { // an object is cacheMember's
			r.ok = false
		}
	default:
		r.ok = r.ok && !OddUsageKey(key)
	}
}

// cacheMember reads one member of usage.cache_creation.
func (r *usageReader) cacheMember(key, val []byte) {
	switch {
	case string(key) == "ephemeral_1h_input_tokens":
		r.ok = r.ok && plainInt(&r.u.CacheCreation.Ephemeral1h, val)
	case strings.EqualFold(string(key), "ephemeral_1h_input_tokens"):
		r.ok = false
	}
}

// setUsage makes usage the current message's: u as read by a
// usageReader when it said ok, else val (the usage object) read by
// json.Unmarshal, with its problem.
func (d *recordDecoder) setUsage(val []byte, u *usageJSON, ok bool) {
	if !ok {
		u = new(usageJSON)
		if err := json.Unmarshal(val, u); err != nil {
			d.fieldProblem("message.usage: %v", err)
		}
	}
	m := d.cur.msgOut
	m.Usage = &u.Usage
	m.CacheWrite1h, m.Fast = u.CacheCreation.Ephemeral1h, bool(u.Speed)
}

// plainInt reads an integer member into dst as json.Unmarshal does (null
// leaves it); false for anything else.
func plainInt(dst *int64, v []byte) bool {
	if string(v) == "null" {
		return true
	}
	n, ok := jsonscan.Int(v)
	if ok {
		*dst = n
	}
	return ok
}

// fastSpeed is usage.speed read as "is it fast", without keeping the text.
type fastSpeed bool

func (f *fastSpeed) UnmarshalJSON(b []byte) error {
	*f = string(b) == `"fast"`
	return nil
}

func (d *recordDecoder) decodeContent(m *Message, v []byte) {
	switch v[0] {
	case '"':
		if d.opts.Keep != nil && !d.opts.Keep(d.cur.rec, &ContentBlock{Type: BlockText}) {
			if d.opts.Content {
				m.Content = []ContentBlock{{Type: BlockText}}
			}
			return
		}
		n, u := d.strSize(v)
		m.ContentBytes, m.ContentChars = n, u
		if d.opts.Content {
			b := ContentBlock{Type: BlockText, Bytes: n, Chars: u}
			if d.opts.KeepText {
				b.Text = d.str(v)
			}
			m.Content = []ContentBlock{b}
		}
	case '[':
		jsonscan.EachElement(v, func(el []byte) {
			var b ContentBlock
			if el[0] == '{' {
				d.startBlock(&b)
				jsonscan.EachMember(el, d.blockFn)
				d.endBlock(&b, d.held)
			}
			d.addBlock(m, &b)
		})
	}
}

// startBlock makes b the block whose members blockMember reads.
func (d *recordDecoder) startBlock(b *ContentBlock) {
	d.cur.block = b
	d.held = d.held[:0]
}

// endBlock reads held, the members of b (the current block) held for
// ScanOptions.Keep, when it takes the block; b's other members are read.
func (d *recordDecoder) endBlock(b *ContentBlock, held []heldMember) {
	if d.opts.Keep != nil && d.opts.Keep(d.cur.rec, b) {
		d.keep = true
		for _, h := range held {
			d.blockMember(h.key, h.val)
		}
		d.keep = false
	}
}

// addBlock adds the read block b (zero for an element that is not an
// object) to m.
func (d *recordDecoder) addBlock(m *Message, b *ContentBlock) {
	if b.Type == BlockImage {
		b.Images = 1
	}
	m.ContentBytes += b.Bytes
	m.ContentChars += b.Chars
	if d.opts.Content {
		m.Content = append(m.Content, *b)
	}
}

func (d *recordDecoder) blockMember(key, val []byte) {
	b := d.cur.block
	if d.opts.Keep != nil && !d.keep {
		// The block's bulk waits for Keep's answer, which needs the
		// members around it (type, name) whatever their order.
		if k := heldKey(key); k != nil {
			d.held = append(d.held, heldMember{k, val})
			return
		}
	}
	switch string(key) {
	case "type":
		s, _ := rawString(val, &d.in)
		b.Type = BlockType(s)
	case "text", "thinking":
		n, u := d.strSize(val)
		b.Bytes += n
		b.Chars += u
		if d.opts.KeepText {
			b.Text += d.str(val)
		}
	case "input":
		b.Bytes += len(val)
		b.Chars += d.units(val)
		if d.opts.KeepText {
			b.Input = string(val)
		}
	case "id":
		b.ID = d.str(val)
	case "name":
		b.Name = d.interned(val)
	case "tool_use_id":
		b.ToolUseID = d.str(val)
	case "is_error":
		b.IsError = rawBool(val)
	case "content":
		d.decodeResultContent(b, val)
	}
}

// heldMember is a block's member whose reading waits for ScanOptions.Keep.
type heldMember struct{ key, val []byte }

// heldKeys are the names of the members a block holds for Keep, kept as
// the decoder's own bytes: a scanner's key is valid only during its call.
var heldKeys = [...][]byte{[]byte("text"), []byte("thinking"), []byte("input"), []byte("content")}

// heldKey is key's entry in heldKeys, or nil when a block does not hold
// it for Keep.
func heldKey(key []byte) []byte {
	for _, k := range heldKeys {
		if string(k) == string(key) {
			return k
		}
	}
	return nil
}

// resultWanted reports whether the raw result string v may hold
// ScanOptions.ResultNeeds once decoded (always, when it is unset).
func (d *recordDecoder) resultWanted(v []byte) bool {
	n := d.opts.ResultNeeds
	return n == "" || bytes.Contains(v, []byte(n)) || bytes.Contains(v, []byte(`\u`))
}

// decodeResultContent sizes a tool_result's content: a string, or an array
// of text and image blocks.
func (d *recordDecoder) decodeResultContent(b *ContentBlock, v []byte) {
	switch v[0] {
	case '"':
		n, u := d.strSize(v)
		b.Bytes += n
		b.Chars += u
		if d.opts.KeepText && d.resultWanted(v) {
			b.Text += d.str(v)
		}
	case '[':
		jsonscan.EachElement(v, func(el []byte) {
			if el[0] != '{' {
				return
			}
			var typ, text []byte
			jsonscan.EachMember(el, func(key, val []byte) {
				switch string(key) {
				case "type":
					typ = val
				case "text":
					text = val
				}
			})
			if string(typ) == `"image"` {
				b.Images++
				return
			}
			if text != nil {
				n, u := d.strSize(text)
				b.Bytes += n
				b.Chars += u
				if d.opts.KeepText {
					b.Text += d.str(text)
				}
			}
		})
	}
}
