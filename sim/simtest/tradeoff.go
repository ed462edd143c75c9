package simtest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim/sweep"
)

// AssertLeaseByPauseMap sweeps a design's trade-off map of its lease
// against the holder's pause as the window's coarse pass draws it
// (ttl=5s:50s:10 × pause=0s:60s:7, 3 seeds) and holds what a lease that
// the waiter times on its own clock means (DynamoDB's leaseDuration, the
// Kubernetes LeaseDuration): a pause of at most half the lease is safe,
// the holder's next renewal changing the record before any waiter's count
// runs out; a pause more than 10 s over it is not, in some cells, as long
// as the paused holder wakes before the run's 60 s end (the pause strikes
// before its write at 2 s).
func AssertLeaseByPauseMap(t *testing.T, mode string) {
	t.Helper()
	base, err := sweep.Base(mode)
	require.NoError(t, err)
	x, err := sweep.ParseAxis("ttl=5s:50s:10")
	require.NoError(t, err)
	y, err := sweep.ParseAxis("pause=0s:60s:7")
	require.NoError(t, err)
	cells, err := (&sweep.Sweep{Base: base, X: x, Y: y, Seeds: 3}).Run(context.Background(), 0, nil)
	require.NoError(t, err)
	require.Len(t, cells, 70)
	unsafe := 0
	for _, c := range cells {
		ttl, pause := time.Duration(c.X*float64(time.Millisecond)), time.Duration(c.Y*float64(time.Millisecond))
		switch {
		case pause <= ttl/2:
			assert.Zero(t, c.UnsafeRate, "%s: ttl %v, pause %v", mode, ttl, pause)
		case pause > ttl+10*time.Second && pause < 55*time.Second:
			assert.Positive(t, c.UnsafeRate, "%s: ttl %v, pause %v", mode, ttl, pause)
			unsafe++
		}
	}
	assert.Positive(t, unsafe, mode)
}
