package kubernetes_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/sim/sweep"
)

// The tab's trade-off map, LeaseDuration × pause, says what the lease
// means: a leader paused well under LeaseDuration renews before any
// candidate's count runs out; one paused well over it is taken over and,
// waking, writes as a second leader.
func TestTradeoffMapLeaseByPause(t *testing.T) { simtest.AssertLeaseByPauseMap(t, "kubernetes") }

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
