package redis

import "github.com/lockscope/lockscope/sim"

// The settings Redis's scenarios have of their own (Traits.Options), in
// the order the scenario file writes them.
var (
	// Replica adds redis-2, an asynchronous replica of redis-1, and
	// Sentinel to promote it (a failover fault).
	Replica = sim.NewBool(sim.Option{Key: "replica", Words: "replica", Describe: sim.DescribeOnOff}, false)
	// FailoverAfter (with a replica) is Sentinel's delay from the
	// master's failure to the promoted replica: down-after-milliseconds,
	// the quorum's agreement, the leader election and SLAVEOF NO ONE.
	FailoverAfter = sim.NewDuration(sim.Option{Key: "failoverAfter",
		Refusal: sim.OnlyReaders("failoverAfter", "field.failoverAfter", "only for %s with a replica (Sentinel's delay)"),
		Words:   "failoverAfter", Describe: sim.DescribeFigure,
		Applies: func(sc *sim.Scenario) bool { return Replica.Of(sc) },
	}, DefaultFailoverAfter, nil)
	// Watchdog is Redisson's lock watchdog: the holder renews its key
	// every TTL/3 while it works.
	Watchdog = sim.NewBool(sim.Option{Key: "watchdog", Changeable: true, Words: "watchdog", Describe: sim.DescribeOnOff}, false)
	// Client is the lock's client: ClientRedisson, Redisson's RLock (its
	// lock and unlock scripts), the default; or ClientPlain, the plain
	// client of the redis.io recipe ("Correct Implementation with a
	// Single Instance",
	// https://redis.io/docs/latest/develop/use/patterns/distributed-locks/):
	// SET key token NX PX ttl, a compare-and-delete script to release,
	// with Watchdog a compare-and-PEXPIRE every TTL/3; a string key, no
	// hash, no hold count, no resend. A file without it is Redisson's.
	Client = sim.NewChoice(sim.Option{Key: "client",
		Refusal: sim.OnlyReaders("client", "field.client", "only for %s (its lock client, Redisson or a plain SET NX one)"),
		Words:   "client", Describe: sim.DescribePhrase}, ClientRedisson, []string{ClientRedisson, ClientPlain})
	// Reenter is a holder taking its own lock again (Redisson's RLock is
	// reentrant): this far into its work it locks again, and as long
	// again later it unlocks that inner hold; the outer section works on
	// to its end. 0 (the default) never re-enters. Declared with the same
	// key by ZooKeeper and etcd; Redlock refuses it (redsync's Mutex is
	// not reentrant).
	Reenter = sim.NewDuration(sim.Option{Key: "reenter",
		Refusal: sim.OnlyReaders("reenter", "field.onlyFor", "only for %s"),
		Words:   "reenter", Describe: sim.DescribeFigure}, 0, nil)
	// PlainDel releases with a bare DEL instead of compare-and-delete.
	PlainDel = sim.NewBool(sim.Option{Key: "plainDel", Changeable: true, Words: "plainDel", Describe: sim.DescribePhrase}, false)
)

// options are Redis's, in their order.
var options = []*sim.Option{Replica.Option, FailoverAfter.Option, Watchdog.Option, PlainDel.Option, Client.Option, Reenter.Option}

// The parameter line says reenter only when it is set.
func init() { Reenter.Applies = Reenter.IsOn }

// The values of Client.
const (
	ClientRedisson = "redisson" // Redisson 3.x's RLock
	ClientPlain    = "plain"    // the redis.io recipe's SET NX PX client
)
