package dynamodb_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim/sweep"
)

// The trade-off map of the tab, leaseDuration × pause, as the window's
// coarse pass draws it (10 × 7 cells, 3 seeds), says
// what the lease means: a pause well under the lease is safe (the heartbeat
// after it changes the version before any waiter's count runs out), one
// well over it is not, as long as the paused holder wakes before the run's
// 60 s end (the pause strikes before its write at 2 s).
func TestTradeoffMapLeaseByPause(t *testing.T) {
	base, err := sweep.Base("dynamodb")
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
