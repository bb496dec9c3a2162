// Package review is the review inbox: the memories Claude Code wrote or
// changed since the user last looked (engine/provenance says who made a
// file's last change), newest first, each with its provenance and a diff
// against the copy kept when it was last accepted.
//
// The state is memscope's own, in <memory folder>/.memscope/review.json:
// per file the SHA-256 and a copy of the bytes accepted (so the diff since
// the last review needs nothing else: Claude Code's writes are in no
// journal), and when. The client skips every path segment starting with
// ".", so it never reads the state as memory, and neither does memscope
// (model.ReadMemoryDir skips it: lint, stat and the Memories rows never
// count it). It is written through the store's atomic writer and is not
// journaled: accepting changes no memory, and the undo journal (u) stays
// the history of memory changes. Rejecting is a memory change: the file
// goes to the trash through engine/store, journaled and undoable; after
// an undo it is back in the inbox, unreviewed.
package review
