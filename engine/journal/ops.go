package journal

// OpKind names a journaled operation.
type OpKind string
