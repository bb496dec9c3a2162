package enginetest

// LeakedKey is an AWS access key id of the documented shape (not a real
// key), which the scan rates high.
const LeakedKey = "AKIAZ4QW7RT2MXKJ5HPL"
