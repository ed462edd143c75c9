package etcd

import (
	"strconv"

	"github.com/lockscope/lockscope/sim"
)

// clientv3's concurrency.Election, the election recipe of "use":
// "election", as etcd-io/etcd client/v3/concurrency/election.go (tag
// v3.5.33; the conformance module runs v3.5.35) has it:
//
//   - Campaign(val): the key is keyPrefix + the session's lease ID in hex
//     (Prefix here); a Txn If(CreateRevision(k) = 0) Then(Put(k, val,
//     WithLease)) Else(Get(k)) (the Mutex's TxnLock; the Else branch
//     takes the key's own create revision as leaderRev), then always
//     waitDeletes(keyPrefix, leaderRev-1): the latest key created before
//     ours, watched until deleted, until none is left. Unlike
//     Mutex.Lock, Campaign neither skips waitDeletes for the oldest key
//     nor Gets its own key after it: a campaigner whose key died while it
//     waited is told it leads (its session's Done() is what says
//     otherwise).
//   - Proclaim(val): Txn If(CreateRevision(leaderKey) = leaderRev)
//     Then(Put): the fenced write's guard (TxnWrite), which the leader's
//     writes carry with fencing on.
//   - Resign(): Txn If(CreateRevision(leaderKey) = leaderRev)
//     Then(Delete(leaderKey)). The key holds this lease's ID and only this
//     client creates it, so the guard holds whenever the key is there:
//     the plain Delete the Mutex's Unlock sends does the same.
//   - Observe(): a Get of the first created key, then a watch of it; the
//     simulation's candidates learn the leader only by winning.
//
// The leader leads until it fails, is cut off, is told by Session.Done()
// that its lease is gone, or resigns after LeadPeriods periods of work.

// campaignWaits reports, for the Txn of a first try, whether the client
// goes on to waitDeletes whatever the owner: Campaign always does.
func campaignWaits(sc *sim.Scenario) bool { return Electing(sc) }

// campaignChecks reports whether the client Gets its own key after
// waitDeletes (Mutex.Lock does; Campaign does not).
func campaignChecks(sc *sim.Scenario) bool { return !Electing(sc) }

// electionNextPeriod is the leader, its write answered, starting its
// next period of work; false when it resigns instead (its periods are
// done, or Session.Done() told it its lease is gone) or the client runs
// the lock.
func (c *etcdClient) electionNextPeriod(ctx sim.Ctx) bool {
	sc := ctx.Scenario()
	if !Electing(sc) || c.Told() || c.sess != sessAlive {
		return false
	}
	c.periods++
	if n := LeadPeriods.Of(sc); n > 0 && c.periods >= n {
		if ctx.Tracing() {
			ctx.TraceSaid(traceLock, "Resign", "Resign(): "+strconv.Itoa(c.periods)+" periods led, it deletes "+c.myKey,
				sim.Say("note.etcd.resign", "n", strconv.Itoa(c.periods), "key", c.myKey))
		}
		return false
	}
	c.phase = phWork
	c.Again(ctx)
	return true
}
