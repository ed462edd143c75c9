package zookeeper_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/sim/zookeeper"
)

// TestZooKeeperBeliefEndsWhenTold (issue 31): with a ConnectionStateListener
// (respectSuspended) the holder is told SUSPENDED (or LOST) the instant
// Curator's ConnectionStateManager hands the state to its listeners, and
// its belief — the timeline's lane, the overlaps and violations — ends
// then; RECONNECTED in the same session makes it believe again. Its write
// path still stops only at its worker's next check, the read of the
// listener's flag at the end of its work: a write sent before that check
// lands. Without a listener nothing tells it.
func TestZooKeeperBeliefEndsWhenTold(t *testing.T) {
	tests := []struct {
		name    string
		preset  string
		edit    func(*sim.Scenario)
		client  string
		told    bool   // a SUSPENDED of the holder's ends its belief
		again   bool   // RECONNECTED in the same session: it believes again
		stop    string // the note of the worker's check that stops the write; "" when it writes
		writes  int    // the holder's writes the storage received after it was told
		overlap int    // violations
	}{
		{"cut off: told SUSPENDED, stops at its check", "zk-session-expiry", nil,
			"client-1", true, false, "connection SUSPENDED: it does not write", 0, 0},
		{"paused past its session: told SUSPENDED on waking, stops at its check on LOST", "zk-gc-pause",
			func(sc *sim.Scenario) { zookeeper.RespectSuspended.Set(sc, true) },
			"client-1", true, false, "session LOST: it does not write", 0, 1},
		{"checked, then paused: told SUSPENDED after its check, the write lands", "zk-check-then-pause", nil,
			"client-1", true, false, "", 1, 1},
		{"leader crash: told SUSPENDED, RECONNECTED, writes", "zk-leader-crash", nil,
			"client-2", true, true, "", 1, 0},
		{"no listener: nothing tells it", "zk-session-expiry", func(sc *sim.Scenario) { zookeeper.RespectSuspended.Set(sc, false) },
			"client-1", false, false, "", 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := simtest.Preset(t, tt.preset, tt.edit)
			sum, rec := simtest.Run(t, sc)
			i := slices.Index(sc.ClientNames(), tt.client)
			require.GreaterOrEqual(t, i, 0)
			require.Len(t, zkGrantsOf(sum, tt.client), 1, "one grant: believing again is not a new one")
			var granted time.Duration
			for _, g := range rec.Checker().Grants() {
				if int(g.Client) == i {
					granted = g.At
				}
			}
			beliefs := rec.Timeline().Holding[i]
			require.NotEmpty(t, beliefs)
			assert.Equal(t, granted, beliefs[0].From, "the belief starts at the grant")
			var writes []sim.WriteRecord
			for _, w := range rec.Checker().Writes() {
				if int(w.Client) == i {
					writes = append(writes, w)
				}
			}
			assert.Equal(t, tt.overlap, sum.Violations, "violations")

			suspended := zkTrace(rec, tt.client, "state", zookeeper.SessionSuspended, "")
			if !tt.told {
				require.NotEmpty(t, writes)
				assert.GreaterOrEqual(t, beliefs[0].To, writes[len(writes)-1].At,
					"told nothing, it believes through its write to its release")
				if len(suspended) > 0 {
					assert.Greater(t, beliefs[0].To, suspended[0].At, "SUSPENDED reaches no listener")
				}
				return
			}
			require.NotEmpty(t, suspended)
			told := suspended[0].At
			assert.Equal(t, told, beliefs[0].To, "the belief ends the instant the listener is told SUSPENDED")
			snap := rec.At(told)
			assert.Equal(t, sim.StateTold, snap.Nodes[i].State, "the holder is shown told, not holding")

			if tt.again {
				reconnected := zkTrace(rec, tt.client, "state", "RECONNECTED", "")
				require.NotEmpty(t, reconnected)
				require.Len(t, beliefs, 2, "one grant, two stretches of belief")
				assert.Equal(t, reconnected[0].At, beliefs[1].From, "RECONNECTED: it believes again")
				require.NotEmpty(t, writes)
				assert.GreaterOrEqual(t, beliefs[1].To, writes[len(writes)-1].At, "and writes, believing")
			} else {
				assert.Len(t, beliefs, 1)
			}

			var after int
			for _, w := range writes {
				if w.At > told {
					after++
				}
			}
			assert.Equal(t, tt.writes, after, "writes received after it was told")
			if tt.stop == "" {
				assert.Empty(t, zkTrace(rec, tt.client, "unheld", "", "does not write"), "its check came before it was told, or found the flag clear")
				return
			}
			stops := zkTrace(rec, tt.client, "unheld", "", tt.stop)
			require.Len(t, stops, 1)
			assert.Greater(t, stops[0].At, told, "its write path stops only at its next check")
			assert.GreaterOrEqual(t, stops[0].At-granted, sc.Work.D(), "the check is at the end of its work")
			assert.Equal(t, sim.StateTold, rec.At(stops[0].At - time.Millisecond).Nodes[i].State, "working, told, up to its check")
		})
	}
}
