// Package simtest holds the helpers the simulator's tests share across
// packages: package sim's own tests and each design's, which live in the
// design's folder: the designs' simulator sides (Modes, Install, Main), the
// bundled presets read from the source tree (Load, PresetNames), a run, a
// grant. It is imported by tests only, and imports nothing above sim.
package simtest

import (
	"cmp"
	"slices"
	"testing"
	"time"

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
