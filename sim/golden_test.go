package sim_test

// Golden grids: the numbers of a sweep, and the traces of the presets, as
// the code computed them before it was made faster. A speed-up must leave
// every byte of them alone; TestSweepGolden and TestPresetTraceGolden
// compare a fresh computation with the files in testdata/golden.
//
// Regenerate them with
//
//	go test ./sim -run 'TestSweepGolden|TestPresetTraceGolden' -update
//
// ONLY when behaviour changes on purpose (a protocol fix, a new node, a new
// client behaviour), and ONLY from code WITHOUT performance changes: check
// out the commit before the optimisation (git worktree add), run -update
// there, and copy the files over. Never regenerate them from optimised code
// to make a failure go away: a failure here means the optimisation changed
// a result.

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden from the current code (see golden_test.go first)")

// goldenGrid is one sweep of the golden set.
type goldenGrid struct {
	name   string
	mode   string
	x, y   string
	seeds  int
	adjust func(*sim.Scenario)
}

var goldenGrids = []goldenGrid{
	{name: "redis", mode: "redis", x: "ttl=1s:30s:6", y: "pause=0s:20s:5", seeds: 4},
	{name: "redis-fencing-watchdog", mode: "redis", x: "ttl=1s:30s:6", y: "pause=0s:20s:5", seeds: 4,
		adjust: func(sc *sim.Scenario) { sc.Fencing, sc.Watchdog = true, true }},
	{name: "redis-replica-plaindel", mode: "redis", x: "ttl=1s:30s:4", y: "pause=0s:20s:4", seeds: 3,
		adjust: func(sc *sim.Scenario) { sc.Replica, sc.PlainDel = true, true }},
	{name: "redlock", mode: "redlock", x: "ttl=1s:30s:6", y: "pause=0s:20s:5", seeds: 4},
	{name: "redlock-nodes-drift", mode: "redlock", x: "nodes=3:7:3", y: "clockDrift=0:0.2:3", seeds: 3},
	{name: "zookeeper", mode: "zookeeper", x: "ttl=1s:30s:6", y: "pause=0s:20s:5", seeds: 4},
	{name: "zookeeper-herd-clients", mode: "zookeeper", x: "clients=2:5:4", y: "pause=0s:12s:3", seeds: 3,
		adjust: func(sc *sim.Scenario) { sc.Herd = true }},
	{name: "etcd", mode: "etcd", x: "ttl=1s:30s:6", y: "pause=0s:20s:5", seeds: 4},
	{name: "etcd-clients-latency", mode: "etcd", x: "clients=2:4:3", y: "latency=1ms:50ms:3", seeds: 3},
}

// formatCells prints every number of every cell at full precision.
func formatCells(cells []sim.Cell) string {
	var b strings.Builder
	b.WriteString("x y runs unsafeRate violationRate recoveryMeanMs recoveryP99Ms acquireMeanMs unsafeSeed\n")
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, c := range cells {
		fmt.Fprintf(&b, "%s %s %d %s %s %s %s %s %d\n", f(c.X), f(c.Y), c.Runs, f(c.UnsafeRate), f(c.ViolationRate),
			f(c.RecoveryMeanMs), f(c.RecoveryP99Ms), f(c.AcquireMeanMs), c.UnsafeSeed)
	}
	return b.String()
}

// compareGolden checks got against testdata/golden/name, or writes it with
// -update; a difference prints the first differing lines.
func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	simtest.Golden(t, filepath.Join("testdata", "golden", name), got, *updateGolden)
}

func TestSweepGolden(t *testing.T) {
	for _, g := range goldenGrids {
		t.Run(g.name, func(t *testing.T) {
			base, err := sim.SweepBase(g.mode)
			require.NoError(t, err)
			if g.adjust != nil {
				g.adjust(base)
			}
			sw := &sim.Sweep{Base: base, X: axis(t, g.x), Y: axis(t, g.y), Seeds: g.seeds}
			cells, err := sw.Run(context.Background(), 2, nil)
			require.NoError(t, err)
			compareGolden(t, "sweep-"+g.name+".txt", formatCells(cells))
		})
	}
}

// TestPresetTraceGolden: every preset's summary and a digest of its whole
// trace, so that a speed-up of the engine cannot change what the window
// shows either.
func TestPresetTraceGolden(t *testing.T) {
	var b strings.Builder
	for _, name := range assets.PresetNames() {
		sc, err := assets.Preset(name)
		require.NoError(t, err)
		s, err := sim.New(sc)
		require.NoError(t, err)
		s.EnableTrace()
		sum := s.Run()
		var trace strings.Builder
		require.NoError(t, sim.WriteTraceJSONL(&trace, s.Trace()))
		js, err := json.Marshal(sum)
		require.NoError(t, err)
		fmt.Fprintf(&b, "%s steps=%d trace=%x\n  %s\n", name, s.Steps(), sha256.Sum256([]byte(trace.String())), js)
	}
	compareGolden(t, "presets.txt", b.String())
}
