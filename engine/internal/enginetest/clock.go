package enginetest

import (
	"time"
)

var Now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
