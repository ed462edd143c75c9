package sweep_test

// The price of safety: each cell's throughput and p99 wait (Cell.Throughput,
// Cell.WaitP99Ms), beside its unsafe runs.

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/sweep"
)

// TestSweepPriceFollowsTheGrid: where the lock holds through the pause (a
// lease longer than any pause), the other client waits it out, so the
// longer the pause the fewer grants a second and the longer the p99 wait;
// more clients taking turns wait longer too.
func TestSweepPriceFollowsTheGrid(t *testing.T) {
	for _, tc := range []struct {
		mode, x   string
		tputFalls bool // throughput strictly falls along x
		waitGrows bool // the p99 wait strictly grows along x
	}{
		{mode: "zookeeper", x: "pause=0s:12s:4", tputFalls: true, waitGrows: true},
		{mode: "etcd", x: "pause=0s:12s:4", tputFalls: true, waitGrows: true},
		{mode: "redis", x: "pause=0s:12s:4", tputFalls: true, waitGrows: true},
		{mode: "etcd", x: "clients=1:4:4", waitGrows: true},
		{mode: "zookeeper", x: "clients=1:4:4", waitGrows: true},
	} {
		t.Run(tc.mode+"/"+tc.x, func(t *testing.T) {
			base, err := sweep.Base(tc.mode)
			require.NoError(t, err)
			base.TTL = sim.Duration(30_000_000_000) // 30 s: longer than every pause
			cells := runSweep(t, &sweep.Sweep{Base: base, X: axis(t, tc.x), Seeds: 3}, 0)
			for i, c := range cells {
				assert.Zero(t, c.UnsafeRate, "x %v", c.X)
				assert.Positive(t, c.Throughput, "x %v", c.X)
				assert.Positive(t, c.WaitP99Ms, "x %v", c.X)
				assert.GreaterOrEqual(t, c.WaitP99Ms, c.AcquireMeanMs, "x %v: the p99 is at least the mean", c.X)
				if i == 0 {
					continue
				}
				p := cells[i-1]
				if tc.tputFalls {
					assert.Less(t, c.Throughput, p.Throughput, "x %v after %v", c.X, p.X)
				}
				if tc.waitGrows {
					assert.Greater(t, c.WaitP99Ms, p.WaitP99Ms, "x %v after %v", c.X, p.X)
				}
			}
		})
	}
}

// TestSweepPriceIsWhatTheRunsSay: a cell's figures are its paused runs'
// grants over their settled lengths, computed here from the runs alone.
func TestSweepPriceIsWhatTheRunsSay(t *testing.T) {
	for _, mode := range sim.ModeNames() {
		t.Run(mode, func(t *testing.T) {
			base, err := sweep.Base(mode)
			require.NoError(t, err)
			base.Clients = 3
			sw := &sweep.Sweep{Base: base, X: axis(t, "ttl=5s:5s:1"), Y: axis(t, "pause=4s:4s:1"), Seeds: 4}
			cells := runSweep(t, sw, 0)
			require.Len(t, cells, 1)
			var tput float64
			var waits []float64
			for s := range int64(sw.Seeds) {
				run := sim.NewVerdictRun(sw.CellScenario(5000, 4000, base.Seed+s, false), false)
				end := run.SettleVerdict()
				g := run.Check.Grants()
				require.NotEmpty(t, g)
				tput += float64(len(g)) / end.Seconds()
				for _, gr := range g {
					waits = append(waits, sim.Ms(gr.At-gr.Asked))
				}
			}
			sort.Float64s(waits)
			k := (99*len(waits)+99)/100 - 1 // nearest rank
			assert.InDelta(t, sim.Round3(tput/float64(sw.Seeds)), cells[0].Throughput, 1e-9)
			assert.Equal(t, sim.Round3(waits[k]), cells[0].WaitP99Ms)
		})
	}
}

// formatPrice prints each cell's new figures at full precision, apart from
// formatCells so that the older goldens stay as they were.
func formatPrice(cells []sweep.Cell) string {
	var b strings.Builder
	b.WriteString("x y throughput waitP99Ms\n")
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, c := range cells {
		fmt.Fprintf(&b, "%s %s %s %s\n", f(c.X), f(c.Y), f(c.Throughput), f(c.WaitP99Ms))
	}
	return b.String()
}

// TestSweepCellNamesItsSlowestAndTypicalRuns: the seed a cell gives for
// its longest wait is a run whose longest wait is that figure, and no seed
// of the cell waited longer; its typical seed's throughput is the one the
// cell states, and no seed's is nearer the cell's mean.
func TestSweepCellNamesItsSlowestAndTypicalRuns(t *testing.T) {
	for _, mode := range []string{"redis", "zookeeper", "etcd"} {
		t.Run(mode, func(t *testing.T) {
			base, err := sweep.Base(mode)
			require.NoError(t, err)
			sw := &sweep.Sweep{Base: base, X: axis(t, "pause=0s:12s:3"), Seeds: 4}
			for _, c := range runSweep(t, sw, 0) {
				type run struct{ longest, tput float64 }
				runs := map[int64]run{}
				for seed := base.Seed; seed < base.Seed+int64(c.Runs); seed++ {
					s, err := sim.New(sw.CellScenario(c.X, c.Y, seed, false))
					require.NoError(t, err)
					end := s.SettleVerdict()
					var r run
					for _, g := range s.Check.Grants() {
						r.longest = max(r.longest, sim.Ms(g.At-g.Asked))
					}
					if n := len(s.Check.Grants()); n > 0 && end > 0 {
						r.tput = float64(n) / end.Seconds()
					}
					runs[seed] = r
				}
				require.Contains(t, runs, c.SlowestSeed, "x %v", c.X)
				assert.InDelta(t, c.SlowestWaitMs, runs[c.SlowestSeed].longest, 0.001, "x %v", c.X)
				require.Contains(t, runs, c.TypicalSeed, "x %v", c.X)
				assert.InDelta(t, c.TypicalThroughput, runs[c.TypicalSeed].tput, 0.001, "x %v", c.X)
				for seed, r := range runs {
					assert.LessOrEqual(t, r.longest, c.SlowestWaitMs+0.001, "x %v seed %d", c.X, seed)
					assert.GreaterOrEqual(t, math.Abs(r.tput-c.Throughput)+0.002,
						math.Abs(runs[c.TypicalSeed].tput-c.Throughput), "x %v seed %d", c.X, seed)
				}
			}
		})
	}
}
