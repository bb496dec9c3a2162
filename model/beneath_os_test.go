package model

import "runtime"

// isLinux says the kernel's resolution (statBeneath) is there to test.
var isLinux = runtime.GOOS == "linux"
