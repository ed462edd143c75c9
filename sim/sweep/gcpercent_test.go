package sweep

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRaiseGCPercent: overlapping sweeps raise the collector's target
// once and the last one to end puts back what was there; a target already
// higher, or the collector off, is left alone.
func TestRaiseGCPercent(t *testing.T) {
	orig := debug.SetGCPercent(100)
	defer debug.SetGCPercent(orig)
	restoreA := raiseGCPercent()
	restoreB := raiseGCPercent()
	assert.Equal(t, sweepGCPercent, debug.SetGCPercent(sweepGCPercent))
	restoreA()
	assert.Equal(t, sweepGCPercent, debug.SetGCPercent(sweepGCPercent), "one sweep still runs")
	restoreB()
	assert.Equal(t, 100, debug.SetGCPercent(100))

	keep := KeepGCRaised() // sweeps one after another, the target held between them
	raiseGCPercent()()
	assert.Equal(t, sweepGCPercent, debug.SetGCPercent(sweepGCPercent), "held between two sweeps")
	keep()
	assert.Equal(t, 100, debug.SetGCPercent(100))

	for _, was := range []int{-1, 2 * sweepGCPercent} {
		debug.SetGCPercent(was)
		restore := raiseGCPercent()
		assert.Equal(t, was, debug.SetGCPercent(was))
		restore()
		assert.Equal(t, was, debug.SetGCPercent(was))
	}
}
