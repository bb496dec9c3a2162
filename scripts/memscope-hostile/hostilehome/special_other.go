//go:build !unix

package hostilehome

import "errors"

// mkfifo fails: there are no named pipes here.
func mkfifo(string) error { return errors.New("named pipes need a unix system") }
