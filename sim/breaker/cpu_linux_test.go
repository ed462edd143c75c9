package breaker

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the test process has used
// on every core: on a shared machine it says what a search costs where
// the wall clock says how busy the neighbours were.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
