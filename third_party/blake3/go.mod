module github.com/zeebo/blake3

go 1.18

require golang.org/x/sys v0.47.0
