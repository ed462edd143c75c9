package etcd_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/sim/simtest"
)

// TestRWMutex runs the experimental recipes' RWMutex (rwlock.go): readers hold together, a writer waits for them and holds
// alone, a reader that queues after a waiting writer waits for it, and a
// reader paused past its session still believes it reads when a writer
// is granted, which the checker counts ("a writer overlaps no one").
func TestRWMutex(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*sim.Scenario)
		check func(t *testing.T, holds []simtest.Hold, sum sim.Summary, rec *sim.Recording)
	}{
		{"readers share, writers wait, the queue's order is kept", nil, func(t *testing.T, h []simtest.Hold, sum sim.Summary, rec *sim.Recording) {
			simtest.AssertReadersShareWritersQueue(t, h, sum)
			assert.Zero(t, rec.Metrics(rec.End()).Fairness.Inversions, "granted in the order they asked")
			var waited []string
			for _, e := range rec.Trace() {
				if e.Node == "client-1" && strings.HasPrefix(e.Note, "waiting for the delete of") {
					waited = append(waited, e.Note)
				}
			}
			require.Len(t, waited, 1, "client-1's second RLock waits once")
			assert.Contains(t, waited[0], etcd.WritePrefix, "a reader waits for a write key")
			var key4 string // client-4's first key: the last write key below client-1's second
			for _, e := range rec.Trace() {
				if e.Node == "client-4" && key4 == "" && strings.HasSuffix(e.Note, "created at revision 5") {
					key4 = strings.Fields(e.Note)[0]
				}
			}
			require.NotEmpty(t, key4)
			assert.Equal(t, fmt.Sprintf("waiting for the delete of %s from revision 8", key4), waited[0],
				"RLock waits for the LAST write key below its own (Curator's reader watches the first)")
		}},
		{"readers 0 is the plain mutex", func(sc *sim.Scenario) { etcd.Readers.Set(sc, 0) }, func(t *testing.T, h []simtest.Hold, sum sim.Summary, _ *sim.Recording) {
			simtest.AssertOneHolderAtATime(t, h)
		}},
		{"a reader paused past its session: a writer is granted while it still reads", func(sc *sim.Scenario) {
			sc.Clients, sc.Rounds, sc.TTL = 2, 1, sim.Duration(10*time.Second)
			etcd.Readers.Set(sc, 1)
			sc.Faults = []sim.Fault{{At: sim.Duration(time.Second), Pause: "client-1", For: sim.Duration(15 * time.Second)}}
		}, func(t *testing.T, h []simtest.Hold, sum sim.Summary, _ *sim.Recording) {
			simtest.AssertWriterOverPausedReader(t, h, sum)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := simtest.Preset(t, "etcd-read-write", tt.edit)
			sum, rec := simtest.Run(t, sc)
			tt.check(t, simtest.Holds(rec), sum, rec)
		})
	}
}

// TestRWMutexRefuses: what RWMutex does not go with.
func TestRWMutexRefuses(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*sim.Scenario)
		want string
	}{
		{"election", func(sc *sim.Scenario) { etcd.Use.Set(sc, etcd.UseElection) }, "readers: a leader election has no readers"},
		{"fencing", func(sc *sim.Scenario) { sc.Fencing = true }, "readers: RWMutex keeps its key unexported"},
		{"reenter", func(sc *sim.Scenario) { etcd.Reenter.Set(sc, sim.Duration(time.Second)) }, "readers: RWMutex is not reentrant"},
		{"herd", func(sc *sim.Scenario) { etcd.Herd.Set(sc, true) }, "readers: RWMutex waits on one key"},
		{"negative", func(sc *sim.Scenario) { etcd.Readers.Set(sc, -1) }, "readers: -1, want 0 to 100"},
	} {
		t.Run(tt.name, func(t *testing.T) { simtest.AssertRefused(t, "etcd-read-write", tt.edit, tt.want) })
	}
}
