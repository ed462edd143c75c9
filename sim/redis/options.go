package redis

import (
	"fmt"
	"time"

	"github.com/lockscope/lockscope/sim"
)

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
	// Client is the lock's client: ClientRedisson, Redisson 4.7.0's RLock
	// (its lock and unlock scripts, the watchdog, retries, WAIT with a
	// replica), the default; ClientRedissonFair, its RFairLock, which
	// grants in the order the waiters first tried; ClientRedisson316, Redisson 3.16.8's, which
	// resends its lock script and gives up renewal after a failed one; or
	// ClientPlain, the plain
	// client of the redis.io recipe ("Correct Implementation with a
	// Single Instance",
	// https://redis.io/docs/latest/develop/use/patterns/distributed-locks/):
	// SET key token NX PX ttl, a compare-and-delete script to release,
	// with Watchdog a compare-and-PEXPIRE every TTL/3; a string key, no
	// hash, no hold count, no resend. A file without it is Redisson's.
	Client = sim.NewChoice(sim.Option{Key: "client",
		Refusal: sim.OnlyReaders("client", "field.client", "only for %s (its lock client, Redisson or a plain SET NX one)"),
		Words:   "client", Describe: sim.DescribePhrase}, ClientRedisson, []string{ClientRedisson, ClientRedissonFair, ClientRedisson316, ClientPlain})
	// Sentinels (with a replica) is how many Redis Sentinel processes
	// watch the master, sentinel-1…sentinel-N (sentinel.go): they fail it
	// over when it stops answering, not only on a failover fault. 0 is
	// Sentinel as a delay alone (FailoverAfter, on the failover fault).
	// Their quorum is a majority, N/2+1, a fixed rule: `sentinel monitor`
	// takes it as a number, and a majority is what the leader election
	// needs anyway (sentinelGetLeader).
	Sentinels = sim.NewInt(sim.Option{Key: "sentinels",
		Refusal: sim.OnlyReaders("sentinels", "field.sentinels", "only for %s with a replica (Sentinel processes)"),
		Words:   "sentinels", Describe: sim.DescribeFigure,
		Applies: func(sc *sim.Scenario) bool { return Replica.Of(sc) },
	}, 0, func(n int) error {
		if n < 0 || n > 7 {
			return sim.FieldErr("sentinels", sim.Say("field.sentinelsRange", "n", fmt.Sprint(n)), "%d, want 0 to 7", n)
		}
		return nil
	})
	// DownAfter is Sentinel's down-after-milliseconds: how long the master
	// may leave a PING unanswered before a Sentinel holds it subjectively
	// down (SDOWN). 30 s by default, as sentinel.c's
	// sentinel_default_down_after; presets shorten it.
	DownAfter = sim.NewDuration(sim.Option{Key: "downAfter",
		Refusal: sim.OnlyReaders("downAfter", "field.downAfter", "only for %s with Sentinels (down-after-milliseconds)"),
		Words:   "downAfter", Describe: sim.DescribeFigure,
		Applies: func(sc *sim.Scenario) bool { return Replica.Of(sc) && Sentinels.Of(sc) > 0 },
	}, SentinelDownAfter, func(d sim.Duration) error {
		if d.D() < 100*time.Millisecond {
			return sim.FieldErr("downAfter", sim.Say("field.downAfterMin", "t", d.D().String()), "%v, want at least 100ms", d.D())
		}
		return nil
	})
	// Reenter is a holder taking its own lock again (Redisson's RLock is
	// reentrant): this far into its work it locks again, and as long
	// again later it unlocks that inner hold; the outer section works on
	// to its end. 0 (the default) never re-enters. Declared with the same
	// key by ZooKeeper and etcd; Redlock refuses it (redsync's Mutex is
	// not reentrant).
	Reenter = sim.NewDuration(sim.Option{Key: "reenter",
		Refusal: sim.OnlyReaders("reenter", "field.onlyFor", "only for %s"),
		Words:   "reenter", Describe: sim.DescribeFigure}, 0, nil)
	// Readers makes the lock Redisson's RReadWriteLock (rwlock.go):
	// client-1…client-N take its read lock, the others its write lock. 0
	// (the default) is RLock. ZooKeeper and etcd declare the same key.
	Readers = sim.NewInt(sim.Option{Key: "readers",
		Refusal: sim.OnlyReaders("readers", "field.readers", "only for %s (a read–write lock)"),
		Words:   "readers", Describe: sim.DescribeFigureWhenOn}, 0, sim.IntBetween("readers", 0, 100))
	// PlainDel releases with a bare DEL instead of compare-and-delete.
	PlainDel = sim.NewBool(sim.Option{Key: "plainDel", Changeable: true, Words: "plainDel", Describe: sim.DescribePhrase}, false)
)

// options are Redis's, in their order.
var options = []*sim.Option{Replica.Option, FailoverAfter.Option, Sentinels.Option, DownAfter.Option, Watchdog.Option, PlainDel.Option, Client.Option, Reenter.Option, Readers.Option}

// The parameter line says reenter only when it is set.
func init() { Reenter.Applies = Reenter.IsOn }

// The values of Client.
const (
	ClientRedisson     = "redisson"      // Redisson 4.7.0's RLock (release.go)
	ClientRedissonFair = "redisson-fair" // Redisson 4.7.0's RFairLock: RLock's client, the waiters queued (fairlock.go)
	ClientRedisson316  = "redisson-3.16" // Redisson 3.16.8's RLock: resent lock script, renewal dropped after a failure
	ClientPlain        = "plain"         // the redis.io recipe's SET NX PX client
)
