//go:build !linux

package store

import (
	"errors"
	"syscall"
)

// osExchangeSupported says the OS has an atomic exchange of two names.
const osExchangeSupported = false

var errExchangeUnsupported = errors.New("exchange not supported")

func osExchange(a, b string) error { return errExchangeUnsupported }

func isUnsupportedErrno(err error) bool {
	return errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EXDEV)
}
