package zookeeper

import (
	"strconv"

	"github.com/lockscope/lockscope/sim"
)

// The settings ZooKeeper's scenarios have of their own (Traits.Options),
// in the order the scenario file writes them.
var (
	// Nodes is the size of the ensemble, zk-1…zk-N.
	Nodes = sim.NewInt(sim.Option{Key: "nodes", Elsewhere: sim.Ignored, Words: "servers",
		Describe: sim.DescribeFigure, Axis: "1:7:7"}, 3, func(n int) error {
		if n < 1 || n > 7 {
			return sim.FieldErr("nodes", sim.Say("field.zkNodes", "n", strconv.Itoa(n)), "%d, want 1 to 7", n)
		}
		return nil
	})
	// RespectSuspended is the application's ConnectionStateListener, as
	// Curator asks: a holder stops its work while its connection is
	// SUSPENDED.
	RespectSuspended = sim.NewBool(sim.Option{Key: "respectSuspended", Changeable: true, Elsewhere: sim.Ignored,
		Words: "respectSuspended", Describe: sim.DescribeOnOff}, true)
	// Herd is the naive recipe: every waiter watches the whole lock
	// directory instead of its predecessor.
	Herd = sim.NewBool(sim.Option{Key: "herd", Refusal: sim.OnlyReaders("herd", "field.herd", "only %s have watches to herd"),
		Words: "herd", Describe: sim.DescribeWhenOn}, false)
	// Use is what the clients do with the ensemble: UseLock, Curator's
	// InterProcessMutex (the default), or UseElection, Curator's
	// LeaderLatch (latch.go). etcd declares the same key, kind and
	// refusal (sim/etcd/options.go).
	Use = sim.NewChoice(sim.Option{Key: "use",
		Refusal: sim.OnlyReaders("use", "field.use", "only for %s (a lock or a leader election)"),
		Words:   "use", Describe: sim.DescribePhrase}, UseLock, []string{UseLock, UseElection})
	// LeadPeriods is, in election use, how many periods of the leader's
	// work a leader does before it closes its LeaderLatch (resigns); 0:
	// it leads until it fails or is cut off. etcd declares the same key.
	LeadPeriods = sim.NewInt(sim.Option{Key: "leadPeriods",
		Refusal: sim.OnlyReaders("leadPeriods", "field.leadPeriods", "only for %s (a leader's periods before it resigns)"),
		Words:   "leadPeriods", Describe: sim.DescribeFigure,
		Applies: func(sc *sim.Scenario) bool { return Electing(sc) }}, 3, func(n int) error {
		if n < 0 || n > 1000 {
			return sim.FieldErr("leadPeriods", sim.Say("field.leadPeriodsRange", "n", strconv.Itoa(n)), "%d, want 0 to 1000", n)
		}
		return nil
	})
	// Reenter is a holder taking its own lock again: this far into its
	// work it calls acquire() again, and as long again later release();
	// the outer section works on to its end. 0 (the default) never
	// re-enters. Redis and etcd declare the same key.
	Reenter = sim.NewDuration(sim.Option{Key: "reenter",
		Refusal: sim.OnlyReaders("reenter", "field.onlyFor", "only for %s"),
		Words:   "reenter", Describe: sim.DescribeFigure}, 0, nil)
	// Readers makes the lock Curator's InterProcessReadWriteLock
	// (rwlock.go): client-1…client-N take its read lock, the others its
	// write lock. 0 (the default) is the plain InterProcessMutex. Redis
	// and etcd declare the same key.
	Readers = sim.NewInt(sim.Option{Key: "readers",
		Refusal: sim.OnlyReaders("readers", "field.readers", "only for %s (a read–write lock)"),
		Words:   "readers", Describe: sim.DescribeFigureWhenOn}, 0, sim.IntBetween("readers", 0, 100))
)

// Electing reports whether sc's clients run the election recipe.
func Electing(sc *sim.Scenario) bool { return Use.Of(sc) == UseElection }

// The values of Use.
const (
	UseLock     = "lock"     // the lock recipe
	UseElection = "election" // the leader election recipe
)

// options are ZooKeeper's, in their order.
var options = []*sim.Option{Nodes.Option, RespectSuspended.Option, Herd.Option, Use.Option, LeadPeriods.Option, Reenter.Option, Readers.Option}

// The parameter line says reenter only when it is set.
func init() { Reenter.Applies = Reenter.IsOn }
