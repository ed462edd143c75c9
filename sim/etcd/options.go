package etcd

import (
	"strconv"

	"github.com/lockscope/lockscope/sim"
)

// The settings etcd's scenarios have of their own (Traits.Options), in
// the order the scenario file writes them.
var (
	// Nodes is the number of members, etcd-1…etcd-N.
	Nodes = sim.NewInt(sim.Option{Key: "nodes", Elsewhere: sim.Ignored, Words: "members",
		Describe: sim.DescribeFigure, Axis: "1:7:7"}, 3, func(n int) error {
		if n < 1 || n > 7 {
			return sim.FieldErr("nodes", sim.Say("field.etcdNodes", "n", strconv.Itoa(n)), "%d, want 1 to 7 etcd members", n)
		}
		return nil
	})
	// PreVote is raft's pre-vote. On, as etcd 3.5 and later start
	// (etcd-io/etcd server/embed/config.go: NewConfig sets PreVote true;
	// the flag --pre-vote says "Enable the raft Pre-Vote algorithm to
	// prevent disruption when a node that has been partitioned away
	// rejoins the cluster"). etcd 3.4, the Debian server the conformance
	// suite runs, starts with it off: set "preVote": false for 3.4.
	PreVote = sim.NewBool(sim.Option{Key: "preVote", Refusal: sim.OnlyReaders("preVote", "field.preVote", "only for %s (raft's pre-vote)"),
		Words: "preVote", Describe: sim.DescribeOnOff}, true)
	// Herd: every waiter watches the whole prefix instead of the key
	// just before its own.
	Herd = sim.NewBool(sim.Option{Key: "herd", Refusal: sim.OnlyReaders("herd", "field.herd", "only %s have watches to herd"),
		Words: "herd", Describe: sim.DescribeWhenOn}, false)
	// Use is what the clients do with the cluster: UseLock,
	// concurrency.Mutex (the default), or UseElection,
	// concurrency.Election (election.go). ZooKeeper declares the same
	// key, kind and refusal (sim/zookeeper/options.go).
	Use = sim.NewChoice(sim.Option{Key: "use",
		Refusal: sim.OnlyReaders("use", "field.use", "only for %s (a lock or a leader election)"),
		Words:   "use", Describe: sim.DescribePhrase}, UseLock, []string{UseLock, UseElection})
	// LeadPeriods is, in election use, how many periods of the leader's
	// work a leader does before it calls Resign; 0: it leads until it
	// fails or is cut off. ZooKeeper declares the same key.
	LeadPeriods = sim.NewInt(sim.Option{Key: "leadPeriods",
		Refusal: sim.OnlyReaders("leadPeriods", "field.leadPeriods", "only for %s (a leader's periods before it resigns)"),
		Words:   "leadPeriods", Describe: sim.DescribeFigure,
		Applies: func(sc *sim.Scenario) bool { return Electing(sc) }}, 3, func(n int) error {
		if n < 0 || n > 1000 {
			return sim.FieldErr("leadPeriods", sim.Say("field.leadPeriodsRange", "n", strconv.Itoa(n)), "%d, want 0 to 1000", n)
		}
		return nil
	})
	// Reenter is a holder locking its Mutex again with the same session:
	// this far into its work it calls Lock again, and as long again later
	// Unlock; the outer section works on to its end. 0 (the default)
	// never re-enters. The Mutex keeps no count (reenter.go). Redis and
	// ZooKeeper declare the same key.
	Reenter = sim.NewDuration(sim.Option{Key: "reenter",
		Refusal: sim.OnlyReaders("reenter", "field.onlyFor", "only for %s"),
		Words:   "reenter", Describe: sim.DescribeFigure}, 0, nil)
	// Readers makes the lock the experimental recipes' RWMutex
	// (rwlock.go): client-1…client-N RLock, the others Lock. 0 (the
	// default) is concurrency.Mutex. ZooKeeper and Redis declare the same
	// key.
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

// options are etcd's, in their order.
var options = []*sim.Option{Nodes.Option, PreVote.Option, Herd.Option, Use.Option, LeadPeriods.Option, Reenter.Option, Readers.Option}

// The parameter line says reenter only when it is set.
func init() { Reenter.Applies = Reenter.IsOn }
