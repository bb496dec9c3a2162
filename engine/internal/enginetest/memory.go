package enginetest

import (
	"strings"
)

// FreshMemory is a client-written memory modified a day before opsNow.
func FreshMemory(name, desc, typ, body string) string {
	return strings.Replace(ClientMemory(name, desc, typ, body), "2026-10-01T08:00:00.000Z", "2026-11-21T08:00:00.000Z", 1)
}
