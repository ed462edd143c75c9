//go:build !linux

package breaker

import "time"

// processCPU is not read outside Linux; the benchmarks then report wall
// time alone.
func processCPU() (time.Duration, bool) { return 0, false }
