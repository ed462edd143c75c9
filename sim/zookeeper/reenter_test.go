package zookeeper_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/sim/zookeeper"
)

// TestCuratorReentersOnTheClient: InterProcessMutex counts a re-entry in
// its LockData (lockCount), on the client: the second acquire() and the
// inner release() send nothing to ZooKeeper, the znode stays until the
// outer release, and client-2 gets in only after it.
func TestCuratorReentersOnTheClient(t *testing.T) {
	tests := []struct {
		name    string
		reenter time.Duration
		counts  [3]int // client-1's lockCount at 1 s, 3 s and 5 s
	}{
		{"no re-entry", 0, [3]int{1, 1, 1}},
		{"re-entry", 2 * time.Second, [3]int{1, 2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := simtest.Preset(t, "zk-reentrant", func(sc *sim.Scenario) {
				zookeeper.Reenter.Set(sc, sim.Duration(tt.reenter))
			})
			sum, rec := simtest.Run(t, sc)
			for i, at := range []time.Duration{time.Second, 3 * time.Second, 5 * time.Second} {
				snap := rec.At(at)
				var c1, c2 sim.NodeView
				for _, n := range snap.Nodes {
					switch n.Name {
					case "client-1":
						c1 = n
					case "client-2":
						c2 = n
					}
				}
				assert.Equal(t, sim.StateHolding, c1.State, "client-1 holds at %v", at)
				assert.Equal(t, tt.counts[i], c1.Holds, "client-1's lockCount at %v", at)
				assert.Equal(t, sim.StateWaiting, c2.State, "client-2 waits at %v", at)
			}
			for _, e := range rec.Trace() {
				if e.Node == "client-1" && e.Kind == sim.TraceSend && e.At > 1500*time.Millisecond && e.At < 5500*time.Millisecond {
					assert.Equal(t, zookeeper.OpPing.String(), e.Op, "at %v client-1 sends only pings: re-entry is local", e.At)
				}
			}
			assert.Zero(t, sum.Violations)
			g2, ok := simtest.GrantOf(sum, "client-2")
			require.True(t, ok)
			assert.Greater(t, g2.AtMs, 6000.0, "client-2 is granted after client-1's outer release")
		})
	}
}
