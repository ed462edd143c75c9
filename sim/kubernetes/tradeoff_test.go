package kubernetes_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim/sweep"
)

// The trade-off map of the tab, LeaseDuration × pause, as the window's
// coarse pass draws it (10 × 7 cells, 3 seeds), says
// what the lease means: a leader paused well under LeaseDuration renews
// before any candidate's count runs out, one paused well over it is taken
// over and, waking before the run's 60 s end, writes as a second leader
// (the pause strikes before its write at 2 s).
func TestTradeoffMapLeaseByPause(t *testing.T) {
	base, err := sweep.Base("kubernetes")
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
			assert.Zero(t, c.UnsafeRate, "ttl %v, pause %v", ttl, pause)
		case pause > ttl+10*time.Second && pause < 55*time.Second:
			assert.Positive(t, c.UnsafeRate, "ttl %v, pause %v", ttl, pause)
			unsafe++
		}
	}
	assert.Positive(t, unsafe)
}

// The map along the clock's rate: a leader paused 12 s under a 15 s
// LeaseDuration is safe while the clocks agree and taken over early by a
// candidate whose clock runs fast enough.
func TestTradeoffMapLeaseByClockDrift(t *testing.T) {
	base, err := sweep.Base("kubernetes")
	require.NoError(t, err)
	x, err := sweep.ParseAxis("clockDrift=0:0.5:6")
	require.NoError(t, err)
	y, err := sweep.ParseAxis("pause=12s:12s:1")
	require.NoError(t, err)
	cells, err := (&sweep.Sweep{Base: base, X: x, Y: y, Seeds: 20}).Run(context.Background(), 0, nil)
	require.NoError(t, err)
	require.Len(t, cells, 6)
	assert.Zero(t, cells[0].ViolationRate, "clocks that agree")
	assert.Positive(t, cells[5].ViolationRate, "rates up to ±50 %")
}
