package etcd_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/sim/simtest"
)

// TestMutexReentryIsNotCounted: clientv3's Mutex locked again with the
// same session returns at once (its own key is the owner) and counts
// nothing, so the inner Unlock deletes the key while the outer section
// works on: client-2 is granted then, and the checker counts the overlap
// until client-1's outer release. A fenced write (IsOwner() now on
// "\x00") is refused.
func TestMutexReentryIsNotCounted(t *testing.T) {
	tests := []struct {
		name             string
		reenter          time.Duration
		fencing          bool
		violations       int
		grant2Before     time.Duration // client-2's grant comes before this
		grant2After      time.Duration // and after this
		accepted, refuse int           // stale writes accepted, rejected
		words            [3]string     // client-1's HoldWords at 1 s, 3 s and 5 s
	}{
		{"no re-entry", 0, false, 0, time.Minute, 6 * time.Second, 0, 0, [3]string{"", "", ""}},
		{"re-entry", 2 * time.Second, false, 1, 4100 * time.Millisecond, 4 * time.Second, 1, 0,
			[3]string{"", "hold.etcd.reentered", "hold.etcd.unprotected"}},
		{"re-entry, fenced", 2 * time.Second, true, 1, 4100 * time.Millisecond, 4 * time.Second, 0, 1,
			[3]string{"", "hold.etcd.reentered", "hold.etcd.unprotected"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := simtest.Preset(t, "etcd-reentrant", func(sc *sim.Scenario) {
				etcd.Reenter.Set(sc, sim.Duration(tt.reenter))
				sc.Fencing = tt.fencing
			})
			sum, rec := simtest.Run(t, sc)
			for i, at := range []time.Duration{time.Second, 3 * time.Second, 5 * time.Second} {
				for _, n := range rec.At(at).Nodes {
					if n.Name == "client-1" {
						assert.Equal(t, sim.StateHolding, n.State, "client-1 still believes at %v", at)
						assert.Equal(t, tt.words[i], n.HoldWords.Key, "client-1's box at %v", at)
						assert.Zero(t, n.Holds, "the Mutex keeps no count")
					}
				}
			}
			assert.Equal(t, tt.violations, sum.Violations)
			if tt.violations > 0 {
				assert.InDelta(t, 2000, sum.OverlapMs, 100, "client-2 holds from the inner Unlock to client-1's outer release")
			}
			g2, ok := simtest.GrantOf(sum, "client-2")
			require.True(t, ok)
			assert.Less(t, g2.AtMs, float64(tt.grant2Before.Milliseconds()))
			assert.Greater(t, g2.AtMs, float64(tt.grant2After.Milliseconds()))
			assert.Equal(t, tt.accepted, sum.StaleWritesAccepted)
			assert.Equal(t, tt.refuse, sum.StaleWritesRejected)
		})
	}
}
