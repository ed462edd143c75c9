package sweep

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// forkCases are the settings the fork tests try in every mode: the pause
// before the write and mid-work, three clients of two rounds, latency with
// clock drift, runs too short for the pause to strike, and runs over
// before the longer pauses end.
var forkCases = []struct {
	name    string
	pauseAt string
	set     func(*sim.Scenario)
}{
	{"before-write", PauseBeforeWrite, func(*sim.Scenario) {}},
	{"mid-work", PauseMidWork, func(*sim.Scenario) {}},
	{"three clients, two rounds", PauseBeforeWrite, func(sc *sim.Scenario) { sc.Clients, sc.Rounds = 3, 2 }},
	{"latency and drift", PauseBeforeWrite, func(sc *sim.Scenario) {
		sc.Latency, sc.ClockDrift = sim.Duration(30*time.Millisecond), 0.05
	}},
	{"over before the pause", PauseBeforeWrite, func(sc *sim.Scenario) { sc.Duration = sim.Duration(1500 * time.Millisecond) }},
	{"over during the pauses", PauseBeforeWrite, func(sc *sim.Scenario) { sc.Duration = sim.Duration(8 * time.Second) }},
}

// eachPausedLine calls line with the scenarios of every seed's line of
// pauses (4 s, 12 s, 20 s, shortest first) in every mode and fork case,
// at three TTLs and two seeds, and name saying where a line's cell i is.
func eachPausedLine(t *testing.T, line func(scs []*sim.Scenario, name func(i int) string)) {
	for _, mode := range sim.ModeNames() {
		for _, v := range forkCases {
			base, err := Base(mode)
			require.NoError(t, err)
			v.set(base)
			x, err := ParseAxis("ttl=1s:30s:3")
			require.NoError(t, err)
			y, err := ParseAxis("pause=4s:20s:3")
			require.NoError(t, err)
			sw := &Sweep{Base: base, X: x, Y: y, Seeds: 2, PauseAt: v.pauseAt}
			for _, xv := range x.Values {
				for seed := int64(1); seed <= 2; seed++ {
					scs := make([]*sim.Scenario, len(y.Values))
					for i, yv := range y.Values {
						scs[i] = sw.CellScenario(xv, yv, seed, false)
					}
					line(scs, func(i int) string {
						return fmt.Sprintf("%s, %s: ttl %v pause %v seed %d", mode, v.name, xv, y.Values[i], seed)
					})
				}
			}
		}
	}
}

// assertTheRunAlone holds run f, settled at end, to sc's run made alone:
// the same end and records, and with whole the same events and fault
// records too (a run that stands for a longer pause than its own, over
// before that pause would end, has the other's).
func assertTheRunAlone(t *testing.T, sc *sim.Scenario, f *sim.Sim, end time.Duration, whole bool, at string) {
	t.Helper()
	alone := sim.NewVerdictRun(sc, false)
	want := alone.SettleVerdict()
	require.Equal(t, want, end, at)
	assert.Equal(t, alone.Check.Summary(want), f.Check.Summary(end), at)
	assert.Equal(t, alone.Check.Grants(), f.Check.Grants(), at)
	assert.Equal(t, alone.Check.Writes(), f.Check.Writes(), at)
	assert.Equal(t, alone.Check.Ownerships(), f.Check.Ownerships(), at)
	if whole {
		require.Equal(t, alone.Steps(), f.Steps(), at)
		assert.Equal(t, alone.Check.Faults(), f.Check.Faults(), at)
	}
}

// TestAForkAtThePauseIsTheRunAlone: a run forked where its pause is the
// next event (settleUntil, sim.Sim.fork) and given another pause's scenario
// goes on event for event as that scenario's run made alone: the same
// number of events, the same end and the same records, whole, in every
// mode. The last fork is the prefix run itself, as in the sweep.
func TestAForkAtThePauseIsTheRunAlone(t *testing.T) {
	struck, over := 0, 0
	eachPausedLine(t, func(scs []*sim.Scenario, name func(int) string) {
		prefix := sim.NewVerdictRun(scs[0], false)
		if _, stopped := prefix.SettleUntil(len(scs[0].Faults) - 1); !stopped {
			over++
			prefix.Release()
			return
		}
		struck++
		// Every fork is made and run before any is compared, so records a
		// fork shared with another would show.
		forks := make([]*sim.Sim, len(scs))
		ends := make([]time.Duration, len(scs))
		for i, sc := range scs {
			forks[i] = prefix
			if i < len(scs)-1 {
				forks[i] = prefix.Fork()
			}
			forks[i].Scenario = sc
			ends[i] = forks[i].SettleVerdict()
		}
		for i, sc := range scs {
			assertTheRunAlone(t, sc, forks[i], ends[i], true, name(i))
		}
	})
	assert.Positive(t, struck, "no pause struck: the forks were never tried")
	assert.Positive(t, over, "every pause struck: a run over before it was never tried")
}

// TestAChainedPauseIsTheRunAlone: the run with the longest pause, stopped
// where each shorter pause would end (SettleUntilPauseEnds), forked there
// with its pause ended (EndPauseAsIn) and given that pause's scenario,
// goes on event for event as that scenario's run made alone: the same
// number of events, the same end and the same records, whole (its record
// of the pause too), in every mode and setting; the run itself goes on
// as the longest's. A run over before a pause ends is each longer one's.
func TestAChainedPauseIsTheRunAlone(t *testing.T) {
	forked := 0
	eachPausedLine(t, func(scs []*sim.Scenario, name func(int) string) {
		last, pause := len(scs)-1, len(scs[0].Faults)-1
		run := sim.NewVerdictRun(scs[last], false)
		if _, struck := run.SettleUntil(pause); !struck {
			run.Release()
			return
		}
		holder := run.Lookup(scs[0].Faults[pause].Pause)
		runs := make([]*sim.Sim, len(scs))
		ends := make([]time.Duration, len(scs))
		for i, sc := range scs[:last] {
			end, stopped := run.SettleUntilPauseEnds(holder, sc.Faults[pause].For.D())
			if !stopped {
				for j := i; j < last; j++ {
					runs[j], ends[j] = run, end
				}
				break
			}
			forked++
			runs[i] = run.Fork()
			runs[i].Scenario = sc
			require.True(t, runs[i].EndPauseAsIn(pause))
			ends[i] = runs[i].SettleVerdict()
		}
		runs[last], ends[last] = run, run.SettleVerdict()
		for i, sc := range scs {
			assertTheRunAlone(t, sc, runs[i], ends[i], runs[i] != run || i == last, name(i))
		}
	})
	assert.Positive(t, forked, "no shorter pause was forked")
}

// TestAForkedSweepIsTheSweepOfRunsAlone: Sweep.Run, which makes a seed's
// paused runs along the pause axis as one run forked at the pause, gives
// every cell exactly what the cell's runs made one by one give, with the
// pause up the grid and across it, in every mode and setting above.
func TestAForkedSweepIsTheSweepOfRunsAlone(t *testing.T) {
	for _, mode := range sim.ModeNames() {
		for _, v := range forkCases {
			base, err := Base(mode)
			require.NoError(t, err)
			v.set(base)
			ttl, err := ParseAxis("ttl=1s:30s:3")
			require.NoError(t, err)
			pause, err := ParseAxis("pause=0s:20s:4")
			require.NoError(t, err)
			for _, sw := range []*Sweep{
				{Base: base, X: ttl, Y: pause, Seeds: 2, PauseAt: v.pauseAt},
				{Base: base, X: pause, Y: ttl, Seeds: 2, PauseAt: v.pauseAt},
			} {
				got, err := sw.Run(context.Background(), 2, nil)
				require.NoError(t, err)
				for _, c := range got {
					rs := make([]runResult, sw.Seeds)
					for si := range rs {
						seed := sw.Base.Seed + int64(si)
						rs[si] = sw.runOne(c.X, c.Y, seed)
						rs[si].recoveryMs = sw.recoveryMs(c.X, c.Y, seed)
					}
					want := Cell{X: c.X, Y: c.Y}
					summarize(&want, rs, sw.Base.Seed)
					assert.Equal(t, want, c, "%s, %s: %s %v, %s %v", mode, v.name, sw.X.Field, c.X, sw.Y.Field, c.Y)
				}
			}
		}
	}
}

// strictRuns, which forkedRuns falls back on where lazy ticks met a tie
// (none of the grids here meets one), makes the cells it is given as
// their runs alone without lazy ticks, and leaves the others.
func TestStrictRunsAreTheRunsAlone(t *testing.T) {
	for _, mode := range sim.ModeNames() {
		base, err := Base(mode)
		require.NoError(t, err)
		sw := &Sweep{Base: base, Seeds: 1}
		sw.X, err = ParseAxis("ttl=10s:10s:1")
		require.NoError(t, err)
		sw.Y, err = ParseAxis("pause=4s:20s:3")
		require.NoError(t, err)
		cells := []Cell{{X: 10000, Y: 4000}, {X: 10000, Y: 12000}, {X: 10000, Y: 20000}}
		scs := make([]*sim.Scenario, len(cells))
		for i, c := range cells {
			scs[i] = sw.CellScenario(c.X, c.Y, 1, false)
		}
		for _, at := range [][]int{{2}, {1, 2}, {0, 1, 2}} {
			out := make([]runResult, len(cells))
			sw.strictRuns(cells, scs, at, 1, out)
			for i := range cells {
				if slices.Contains(at, i) {
					assert.Equal(t, sw.strictRun(scs[i]), out[i], "%s %v: cell %d", mode, at, i)
				} else {
					assert.Zero(t, out[i], "%s %v: cell %d is left", mode, at, i)
				}
			}
		}
	}
}
