// Package jsstr measures and cuts strings the way JavaScript does:
// UTF-16 code units, JS whitespace, and decoding bytes like Node; and
// cuts a Go string to a byte budget without splitting a character.
package jsstr
