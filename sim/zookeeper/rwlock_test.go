package zookeeper_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/sim/zookeeper"
)

// TestCuratorReadWriteLock runs Curator's InterProcessReadWriteLock
// (rwlock.go): readers hold together, a writer waits for them and holds
// alone, a reader that queues after a waiting writer waits for it, and a
// reader paused past its session still believes it reads when a writer
// is granted, which the checker counts ("a writer overlaps no one").
func TestCuratorReadWriteLock(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*sim.Scenario)
		check func(t *testing.T, holds []simtest.Hold, sum sim.Summary, rec *sim.Recording)
	}{
		{"readers share, writers wait, the queue's order is kept", nil, func(t *testing.T, h []simtest.Hold, sum sim.Summary, rec *sim.Recording) {
			simtest.AssertReadersShareWritersQueue(t, h, sum)
			assert.Zero(t, rec.Metrics(rec.End()).Fairness.Inversions, "granted in the order they asked")
			var watched []string
			for _, e := range rec.Trace() {
				if e.Node == "client-1" && strings.HasPrefix(e.Note, "a write node sorts first") {
					watched = append(watched, e.Note)
				}
			}
			require.NotEmpty(t, watched, "client-1's second round watches a node")
			assert.Contains(t, watched[0], zookeeper.WriteName, "a reader watches the first write node before its own")
			var holders []string
			for _, z := range zookeeper.ViewOf(rec.At(1500 * time.Millisecond)).Children {
				if z.Holder {
					assert.True(t, z.Read, z.Name)
					holders = append(holders, z.Owner)
				}
			}
			assert.Equal(t, []string{"client-1", "client-2"}, holders, "the tree shows both read nodes holding")
		}},
		{"readers 0 is the plain mutex", func(sc *sim.Scenario) { zookeeper.Readers.Set(sc, 0) }, func(t *testing.T, h []simtest.Hold, sum sim.Summary, _ *sim.Recording) {
			simtest.AssertOneHolderAtATime(t, h)
		}},
		{"a reader paused past its session: a writer is granted while it still reads", func(sc *sim.Scenario) {
			sc.Clients, sc.Rounds = 2, 1
			zookeeper.Readers.Set(sc, 1)
			sc.Faults = []sim.Fault{{At: sim.Duration(time.Second), Pause: "client-1", For: sim.Duration(15 * time.Second)}}
		}, func(t *testing.T, h []simtest.Hold, sum sim.Summary, _ *sim.Recording) {
			simtest.AssertWriterOverPausedReader(t, h, sum)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := simtest.Preset(t, "zk-read-write", tt.edit)
			sum, rec := simtest.Run(t, sc)
			tt.check(t, simtest.Holds(rec), sum, rec)
		})
	}
}

// TestReadersRefused: the leader election has no readers, and a count
// out of range is refused.
func TestReadersRefused(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*sim.Scenario)
		want string
	}{
		{"election", func(sc *sim.Scenario) { zookeeper.Use.Set(sc, zookeeper.UseElection) }, "readers: a leader election has no readers"},
		{"negative", func(sc *sim.Scenario) { zookeeper.Readers.Set(sc, -1) }, "readers: -1, want 0 to 100"},
	} {
		t.Run(tt.name, func(t *testing.T) { simtest.AssertRefused(t, "zk-read-write", tt.edit, tt.want) })
	}
}
