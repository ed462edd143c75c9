// Package simtest holds the helpers the simulator's tests share across
// packages: package sim's own tests and each design's, which live in the
// design's folder: the designs' simulator sides (Modes, Install, Main), the
// bundled presets read from the source tree (Load, PresetNames), a run, a
// grant, a design's map of its lease against a pause. It is imported by
// tests only, and imports nothing above sim and sim/sweep.
package simtest

import (
	"cmp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// Preset is the bundled preset name (Load), edited by edit (when not nil)
// and valid; the test stops if it is not.
func Preset(t testing.TB, name string, edit func(*sim.Scenario)) *sim.Scenario {
	t.Helper()
	sc, err := Load(name)
	require.NoError(t, err)
	if edit != nil {
		edit(sc)
	}
	require.NoError(t, sc.Validate())
	return sc
}

// Run records the scenario to its end and gives its summary with the
// recording (to look at any instant).
func Run(t testing.TB, sc *sim.Scenario) (sim.Summary, *sim.Recording) {
	t.Helper()
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	return rec.Summary(), rec
}

// GrantOf is the client's first grant in the summary.
func GrantOf(sum sim.Summary, client string) (sim.GrantSummary, bool) {
	for _, g := range sum.Grants {
		if g.Client == client {
			return g, true
		}
	}
	return sim.GrantSummary{}, false
}

// VolatileMaster says whether a fault of the scenario can make the lock
// service forget what it granted (a failover, or a restart without its
// durable state), after which tokens and sequence numbers may start again.
func VolatileMaster(sc *sim.Scenario) bool {
	for _, f := range sc.Faults {
		if f.Failover != "" || (f.Restart != "" && !f.Persist) {
			return true
		}
	}
	return false
}

// Hold is one stretch of a client's belief that it held the lock, and
// whether it was a read hold of a read–write lock.
type Hold struct {
	Client   string
	From, To time.Duration
	Read     bool
}

// Holds lists the run's holds by their start (then client), from its
// timeline: the read–write lock's tests read who held, how and when.
func Holds(rec *sim.Recording) []Hold {
	tl := rec.Timeline()
	var out []Hold
	for i, ivs := range tl.Holding {
		for _, iv := range ivs {
			read := i < len(tl.Reading) && slices.Contains(tl.Reading[i], iv)
			out = append(out, Hold{Client: tl.Clients[i], From: iv.From, To: iv.To, Read: read})
		}
	}
	slices.SortStableFunc(out, func(a, b Hold) int {
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.Client, b.Client))
	})
	return out
}

// AssertWriterOverPausedReader holds a read–write lock's fault case:
// client-1's read hold, paused past its lease or session, still believed
// when client-2 is granted the write lock; the checker counts that one
// overlap ("a writer overlaps no one") for as long as both believed.
func AssertWriterOverPausedReader(t *testing.T, holds []Hold, sum sim.Summary) {
	t.Helper()
	require.Len(t, holds, 2)
	r, w := holds[0], holds[1]
	assert.Equal(t, "client-1", r.Client)
	assert.True(t, r.Read, "client-1 holds the read lock")
	assert.Equal(t, "client-2", w.Client)
	assert.False(t, w.Read, "client-2 holds the write lock")
	assert.Less(t, w.From, r.To, "the writer holds while the paused reader still believes it reads")
	assert.Equal(t, 1, sum.Violations)
	assert.InDelta(t, (min(r.To, w.To)-w.From).Seconds()*1000, sum.OverlapMs, 1)
}

// AssertRefused holds that the bundled preset, edited by edit, is refused
// with an error that starts with want.
func AssertRefused(t *testing.T, preset string, edit func(*sim.Scenario), want string) {
	t.Helper()
	sc, err := Load(preset)
	require.NoError(t, err)
	edit(sc)
	err = sc.Validate()
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), want), err.Error())
}

// AssertReadersShareWritersQueue holds the queue of a read–write lock
// that keeps its order (Curator's, etcd's RWMutex) in a run of four
// clients, two rounds each, client-1 and client-2 reading: the two
// readers hold together, each writer holds alone after them, and a
// reader queued again behind a waiting writer waits for it.
func AssertReadersShareWritersQueue(t *testing.T, h []Hold, sum sim.Summary) {
	t.Helper()
	require.Len(t, h, 8, "4 clients, 2 rounds")
	var who []string
	for _, x := range h {
		who = append(who, x.Client)
		assert.Equal(t, x.Client == "client-1" || x.Client == "client-2", x.Read, "%s: a read hold for the readers only", x.Client)
	}
	assert.Equal(t, []string{"client-1", "client-2", "client-3", "client-4", "client-1", "client-2", "client-3", "client-4"}, who)
	assert.Less(t, h[1].From, h[0].To, "the two readers hold together")
	assert.GreaterOrEqual(t, h[2].From, max(h[0].To, h[1].To), "the writer holds after both readers")
	assert.GreaterOrEqual(t, h[3].From, h[2].To, "the second writer after the first")
	assert.GreaterOrEqual(t, h[4].From, h[3].To, "client-1 queued again behind the waiting writer and waits for it")
	assert.Zero(t, sum.Violations)
	assert.Zero(t, sum.OverlapMs)
}

// AssertOneHolderAtATime holds a lock without readers: no read hold, and
// each hold begins after the one before ends.
func AssertOneHolderAtATime(t *testing.T, h []Hold) {
	t.Helper()
	for i, x := range h {
		assert.False(t, x.Read, "%s", x.Client)
		if i > 0 {
			assert.GreaterOrEqual(t, x.From, h[i-1].To, "one holder at a time")
		}
	}
}
