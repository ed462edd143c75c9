package etcd_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// TestEtcdBeliefEndsAtSessionDone (issue 31): Session.Done() closes when
// the lessor closes the session's keepalive channel (a keepalive answered
// with TTL 0, or none answered within the TTL), and that is when the
// holder is told: its belief — the timeline's lane, the overlaps and
// violations — ends at that instant. Its write path does not look at
// Done() (Mutex never does, and neither did Jepsen's client): the write
// still goes out at the end of its work, stale, taken by the storage or
// refused by the IsOwner guard with fencing.
func TestEtcdBeliefEndsAtSessionDone(t *testing.T) {
	tests := []struct {
		name     string
		preset   string
		edit     func(*sim.Scenario)
		told     bool // Session.Done() closes while client-1 holds
		accepted bool // client-1's write is taken
		overlap  int  // violations
	}{
		{"paused past the lease: Done on waking, the write follows", "etcd-lease-expiry", nil, true, true, 1},
		{"longer work: Done long before the write", "etcd-lease-expiry",
			func(sc *sim.Scenario) { sc.Work = sim.Duration(3 * time.Second) }, true, true, 1},
		{"fenced: Done, then the guard refuses the write", "etcd-fenced-txn", nil, true, false, 1},
		{"paused within the lease: nothing tells it", "etcd-lease-expiry",
			func(sc *sim.Scenario) { sc.Faults[0].For = sim.Duration(time.Second) }, false, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := etcdPreset(t, tt.preset)
			if tt.edit != nil {
				tt.edit(sc)
			}
			require.NoError(t, sc.Validate())
			s, sum := etcdRun(t, sc)
			c1 := s.Lookup("client-1")
			beliefs := s.Check.Beliefs(s.Now())[c1]
			require.Len(t, beliefs, 1)
			var write sim.WriteRecord
			for _, w := range s.Check.Writes() {
				if w.Client == c1 {
					write = w
				}
			}
			require.NotZero(t, write.At, "client-1 writes")
			assert.Equal(t, tt.accepted, write.Accepted, "client-1's write accepted")
			assert.Equal(t, tt.overlap, sum.Violations, "violations")
			assert.Equal(t, 2, sum.Releases, "client-1 unlocks after its write, told or not")

			done := etcdTraceAt(s, "client-1", "session", "Done", "")
			if !tt.told {
				assert.Equal(t, time.Duration(-1), done)
				assert.GreaterOrEqual(t, beliefs[0].To, write.At, "told nothing, it believes through its write")
				return
			}
			require.Positive(t, done)
			assert.Equal(t, done, beliefs[0].To, "the belief ends the instant Session.Done() closes")
			assert.Greater(t, write.At, done, "the write path does not look at Done(): the write still goes out")
			assert.True(t, write.Stale, "client-2 was granted in between")
			ov := s.Check.Overlaps(s.Now())
			require.Len(t, ov, 1)
			assert.Equal(t, done, ov[0].To, "the overlap ends at Done(), not at the write")
		})
	}
}

// TestEtcdToldHolderShownTold: between Session.Done() and its write the
// holder is shown told, not holding, and counts as no holder.
func TestEtcdToldHolderShownTold(t *testing.T) {
	sc := etcdPreset(t, "etcd-lease-expiry")
	s, _ := etcdRun(t, sc)
	done := etcdTraceAt(s, "client-1", "session", "Done", "")
	require.Positive(t, done)
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	c1 := s.Lookup("client-1")
	assert.Equal(t, sim.StateHolding, rec.At(done - time.Millisecond).Nodes[c1].State, "paused, not told yet")
	assert.Equal(t, sim.StateTold, rec.At(done).Nodes[c1].State)
	assert.Equal(t, sim.StateTold, rec.At(done + 500*time.Millisecond).Nodes[c1].State, "working on to its write")
}
