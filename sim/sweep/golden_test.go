package sweep_test

// Golden grids: the numbers of a sweep as the code computed them before it
// was made faster. A speed-up must leave every byte of them alone:
// TestSweepGolden compares a fresh computation with the files in
// testdata/golden, one line to a row of the grid (sweep-<grid>.txt), and a
// difference prints the first differing lines with their line numbers
// (simtest.Golden), not the whole files. The rules for regenerating them,
//
//	go test ./sim/sweep -run TestSweepGolden -update
//
// are those of the preset traces' (sim/golden_test.go): ONLY when behaviour
// changes on purpose, and ONLY from code without performance changes.

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/kubernetes"
	"github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/sim/sweep"
	"github.com/lockscope/lockscope/sim/zookeeper"
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
		adjust: func(sc *sim.Scenario) { sc.Fencing = true; redis.Watchdog.Set(sc, true) }},
	{name: "redis-replica-plaindel", mode: "redis", x: "ttl=1s:30s:4", y: "pause=0s:20s:4", seeds: 3,
		adjust: func(sc *sim.Scenario) { redis.Replica.Set(sc, true); redis.PlainDel.Set(sc, true) }},
	{name: "redlock", mode: "redlock", x: "ttl=1s:30s:6", y: "pause=0s:20s:5", seeds: 4},
	{name: "redlock-nodes-drift", mode: "redlock", x: "nodes=3:7:3", y: "clockDrift=0:0.2:3", seeds: 3},
	{name: "zookeeper", mode: "zookeeper", x: "ttl=1s:30s:6", y: "pause=0s:20s:5", seeds: 4},
	{name: "zookeeper-herd-clients", mode: "zookeeper", x: "clients=2:5:4", y: "pause=0s:12s:3", seeds: 3,
		adjust: func(sc *sim.Scenario) { zookeeper.Herd.Set(sc, true) }},
	{name: "etcd", mode: "etcd", x: "ttl=1s:30s:6", y: "pause=0s:20s:5", seeds: 4},
	{name: "etcd-clients-latency", mode: "etcd", x: "clients=2:4:3", y: "latency=1ms:50ms:3", seeds: 3},
	{name: "kubernetes", mode: "kubernetes", x: "ttl=1s:30s:6", y: "pause=0s:20s:5", seeds: 4},
	{name: "kubernetes-leads-until-it-fails", mode: "kubernetes", x: "ttl=1s:30s:4", y: "pause=0s:20s:4", seeds: 3,
		adjust: func(sc *sim.Scenario) { kubernetes.LeadPeriods.Set(sc, 0) }},
	{name: "dynamodb", mode: "dynamodb", x: "ttl=1s:30s:6", y: "pause=0s:20s:5", seeds: 4},
}

// formatCells prints every number of every cell at full precision.
func formatCells(cells []sweep.Cell) string {
	var b strings.Builder
	b.WriteString("x y runs unsafeRate violationRate recoveryMeanMs recoveryP99Ms acquireMeanMs unsafeSeed\n")
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, c := range cells {
		fmt.Fprintf(&b, "%s %s %d %s %s %s %s %s %d\n", f(c.X), f(c.Y), c.Runs, f(c.UnsafeRate), f(c.ViolationRate),
			f(c.RecoveryMeanMs), f(c.RecoveryP99Ms), f(c.AcquireMeanMs), c.UnsafeSeed)
	}
	return b.String()
}

func TestSweepGolden(t *testing.T) {
	for _, g := range goldenGrids {
		t.Run(g.name, func(t *testing.T) {
			base, err := sweep.Base(g.mode)
			require.NoError(t, err)
			if g.adjust != nil {
				g.adjust(base)
			}
			sw := &sweep.Sweep{Base: base, X: axis(t, g.x), Y: axis(t, g.y), Seeds: g.seeds}
			cells, err := sw.Run(context.Background(), 2, nil)
			require.NoError(t, err)
			compareGolden(t, "sweep-"+g.name+".txt", formatCells(cells))
			// The price of safety of the same cells (price_test.go), held
			// apart so the grids above stay byte for byte as they were.
			compareGolden(t, "price-"+g.name+".txt", formatPrice(cells))
		})
	}
}

// compareGolden checks got against testdata/golden/name, or writes it with
// -update; a difference prints the first differing lines.
func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	simtest.Golden(t, filepath.Join("testdata", "golden", name), got, *updateGolden)
}
