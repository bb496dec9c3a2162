package model

import "github.com/memscope/memscope/internal/jsonscan"

// The one-walk message: a line's "message" object is read while the line
// is checked (jsonscan's Object and Array walk into it and check each
// member's value before it is read), instead of being checked whole and
// then walked again with EachMember and EachElement (twice again for a
// content array: the array, then each block). It is walked unless the
// line's "type", read before it, says the record has no message to read
// (an api-request-blob's message is only checked); a line whose type
// comes after its message (as the client writes user and assistant
// records) has it walked on the chance, and finish drops what was read
// when the type turns out to be another.
//
// The record is the one finish's decodeMessage makes of the line
// (FuzzOneWalkSameRecord holds the two to it, ScanOptions.Keep's calls
// included). Nothing the walk reads depends on the record's type or its
// other members: what depends on Keep (the held members of a block, the
// sizes it adds to the message, a content string) is recorded in
// contentOps and done by finish, so Keep is asked only about a
// well-formed user or assistant record, with all its top-level fields
// read, as before; the field problems of the message wait in msgProbs
// and join the line's where decodeMessage's would; a line the walk finds
// malformed is decoded again the old way, so its problem (and partial
// record) read as before.

// walkFns are recordDecoder's one-walk callbacks, bound once so the walk
// allocates no closures.
type walkFns struct {
	line, msg, block, usage, cache jsonscan.MemberFunc
	elem                           jsonscan.ElemFunc
}

// contentOp is one step of a walked message's content, done by finish in
// order: a content value that is not an array (val, read by
// decodeContent), or one element of a content array: an object (obj;
// block, read in the walk but for its members held for Keep,
// held[h0:h1]) or another value (a zero block).
type contentOp struct {
	val    []byte
	obj    bool
	block  ContentBlock
	h0, h1 int
}

func (d *recordDecoder) bindWalk() {
	d.walk = walkFns{line: d.lineMember, msg: d.msgMember, block: d.blockWalk, usage: d.usageWalk, cache: d.cacheWalk, elem: d.contentElem}
}

// decodeLine checks line and reads its top-level members (and, in one
// walk, the message of a user or assistant record). A line found
// malformed after a message was walked into is decoded again as before
// the walk, whose error (and partial record) it then returns.
func (d *recordDecoder) decodeLine(line Line, rec *Record) error {
	if d.noWalk {
		return d.js.Members(line.Bytes, d.memberFn)
	}
	err := d.js.Line(line.Bytes, d.walk.line)
	if err != nil && d.cur.walked {
		*rec = Record{Line: rec.Line, Offset: rec.Offset, Size: rec.Size}
		d.problems = d.problems[:0]
		d.cur = lineState{line: line.Number, rec: rec}
		err = d.js.Members(line.Bytes, d.memberFn)
	}
	return err
}

// lineMember checks and reads one top-level member of the line.
func (d *recordDecoder) lineMember(key []byte, v, depth int) (int, error) {
	data := d.js.Bytes()
	if string(key) == "message" {
		// A repeated "message": the last is the one read, as before.
		d.cur.msgOut, d.cur.walkedMsg, d.cur.msg = nil, false, nil
		if t := d.cur.rec.Type; data[v] == '{' && (!d.cur.hasType || t == RecordUser || t == RecordAssistant) {
			return d.walkMessage(v, depth)
		}
	}
	end, err := d.js.Value(v, depth)
	if err == nil {
		d.member(key, data[v:end])
	}
	return end, err
}

// walkMessage checks and reads the message object at v into
// d.cur.msgOut, which finish makes the record's message.
func (d *recordDecoder) walkMessage(v, depth int) (int, error) {
	d.cur.msgOut = new(Message)
	d.cur.walked = true
	d.ops, d.held = d.ops[:0], d.held[:0]
	lineProbs := d.problems
	d.problems = d.msgProbs[:0]
	end, err := d.js.Object(v, depth, d.walk.msg)
	d.msgProbs, d.problems = d.problems, lineProbs
	if err == nil {
		d.cur.msg, d.cur.walkedMsg = d.js.Bytes()[v:end], true
	}
	return end, err
}

// msgMember checks and reads one member of the message: a content array
// is walked into, block by block; the rest is messageMember's, but for
// content, whose reading waits for finish.
func (d *recordDecoder) msgMember(key []byte, v, depth int) (int, error) {
	data := d.js.Bytes()
	if string(key) == "content" && data[v] == '[' {
		return d.js.Array(v, depth, d.walk.elem)
	}
	if string(key) == "usage" && data[v] == '{' {
		// Read in the walk, as plainUsage reads it after the line.
		d.usage = usageReader{u: new(usageJSON), ok: true}
		end, err := d.js.Object(v, depth, d.walk.usage)
		if err == nil {
			d.setUsage(data[v:end], d.usage.u, d.usage.ok)
		}
		return end, err
	}
	end, err := d.js.Value(v, depth)
	if err != nil {
		return end, err
	}
	if string(key) == "content" {
		d.ops = append(d.ops, contentOp{val: data[v:end]})
	} else {
		d.messageMember(key, data[v:end])
	}
	return end, nil
}

// contentElem checks and reads one element of a content array into a
// contentOp, as decodeContent's EachElement does but for Keep's part.
func (d *recordDecoder) contentElem(i, depth int) (int, error) {
	if d.js.Bytes()[i] != '{' {
		d.ops = append(d.ops, contentOp{})
		return d.js.Value(i, depth)
	}
	d.ops = append(d.ops, contentOp{obj: true, h0: len(d.held)})
	op := &d.ops[len(d.ops)-1]
	d.cur.block = &op.block
	end, err := d.js.Object(i, depth, d.walk.block)
	op.h1 = len(d.held)
	return end, err
}

// blockWalk checks and reads one member of a content block.
func (d *recordDecoder) blockWalk(key []byte, v, depth int) (int, error) {
	end, err := d.js.Value(v, depth)
	if err == nil {
		d.blockMember(key, d.js.Bytes()[v:end])
	}
	return end, err
}

// usageWalk checks and reads one member of a message's usage; a
// cache_creation object is walked into.
func (d *recordDecoder) usageWalk(key []byte, v, depth int) (int, error) {
	data := d.js.Bytes()
	if string(key) == "cache_creation" && data[v] == '{' {
		return d.js.Object(v, depth, d.walk.cache)
	}
	end, err := d.js.Value(v, depth)
	if err == nil {
		d.usage.member(key, data[v:end])
	}
	return end, err
}

// cacheWalk checks and reads one member of usage.cache_creation.
func (d *recordDecoder) cacheWalk(key []byte, v, depth int) (int, error) {
	end, err := d.js.Value(v, depth)
	if err == nil {
		d.usage.cacheMember(key, d.js.Bytes()[v:end])
	}
	return end, err
}

// finishContent does the content steps of the walked message m, in order,
// as decodeContent would have.
func (d *recordDecoder) finishContent(m *Message) {
	for i := range d.ops {
		op := &d.ops[i]
		if op.val != nil {
			d.decodeContent(m, op.val)
			continue
		}
		if op.obj {
			d.cur.block = &op.block
			d.endBlock(&op.block, d.held[op.h0:op.h1])
		}
		d.addBlock(m, &op.block)
	}
}
