package redis

import (
	"fmt"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// Redisson's fair lock, RFairLock (redisson/redisson tag redisson-4.7.0,
// redisson/src/main/java/org/redisson/RedissonFairLock.java): the lock
// hash of RLock plus two keys beside it, the waiters' queue
// redisson_lock_queue:{lock} (a list of their thread ids) and their
// timeouts redisson_lock_timeout:{lock} (a sorted set, each a time in ms
// on the clock of the client that queued it). tryLockInnerAsync's
// EVAL_LONG script, run on every try:
//
//   - remove stale threads: while the queue's head has a timeout at or
//     before the caller's currentTime (ARGV[4], System.currentTimeMillis
//     of the caller), LPOP it and ZREM its timeout; no other timeout is
//     changed;
//   - the lock is free (no hash) and the queue empty or headed by the
//     caller: LPOP, ZREM the caller, ZINCRBY every other timeout by
//     -threadWaitTime, HSET the caller's field to 1, PEXPIRE: acquired;
//   - the caller's field exists: a re-entry, HINCRBY and PEXPIRE;
//   - the caller is queued already: answer the lock's PTTL;
//   - otherwise queue it at the end (RPUSH) with the timeout of the last
//     waiter's (minus currentTime, or the lock's PTTL when none waits)
//     plus threadWaitTime plus currentTime, and answer that TTL.
//
// threadWaitTime is Config.fairLockWaitTimeout, 5 minutes by default
// (Config.java at the tag). So a waiter is served in its turn however its
// retries fall, and one that died in the queue blocks the lock, free and
// unheld, until its timeout passes: up to the lock's TTL plus 5 minutes.
//
// The unlock script (unlockInnerAsync) is RLock's with the same stale
// removal first and a PUBLISH to the queue's head's own channel; the
// simulated waiter tries again on its retry delay rather than on that
// message (as RLock's does here), which changes when it tries, not who
// may win. The queue and the timeouts are not replicated to a replica
// here (DIFFERENCES.md 13).

// FairLockWaitTimeout is Redisson's Config.fairLockWaitTimeout default
// (5 * 60000 ms): how long past the lock's TTL a queued waiter keeps its
// turn.
const FairLockWaitTimeout = 5 * time.Minute

// FairTry is the fair lock script's arguments beyond RLock's: the
// caller's System.currentTimeMillis (its wall clock) and threadWaitTime.
type FairTry struct {
	Now  time.Duration
	Wait time.Duration
}

// WithFairTry is the lock command m as RFairLock's script.
func WithFairTry(m sim.Msg, f FairTry) sim.Msg {
	m.Body = &f
	return m
}

// fairTryOf is a lock command's fair-lock arguments; ok false for RLock's.
func fairTryOf(m *sim.Msg) (FairTry, bool) {
	if f, ok := m.Body.(*FairTry); ok {
		return *f, true
	}
	return FairTry{}, false
}

// fairWaiter is one entry of the queue: a waiter's thread id (its random
// value) and its timeout in the timeout set, on the wall clock of the
// client that queued or last moved it.
type fairWaiter struct {
	value   string
	owner   sim.NodeID
	timeout time.Duration
}

// fairQueue is the queue of a lock; a server holds one per fair lock key
// (a lock's keyspace holds one, so a short list, as keyspace is).
type fairQueue struct {
	key     string
	waiters []fairWaiter
}

type fairQueues []fairQueue

func (qs fairQueues) clone() fairQueues {
	out := make(fairQueues, len(qs))
	for i, q := range qs {
		out[i] = fairQueue{key: q.key, waiters: append([]fairWaiter(nil), q.waiters...)}
	}
	return out
}

// of is the queue of key, created empty if there is none.
func (qs *fairQueues) of(key string) *fairQueue {
	for i := range *qs {
		if (*qs)[i].key == key {
			return &(*qs)[i]
		}
	}
	*qs = append(*qs, fairQueue{key: key})
	return &(*qs)[len(*qs)-1]
}

// index is the waiter with value in the queue, -1 for none.
func (q *fairQueue) index(value string) int {
	for i, w := range q.waiters {
		if w.value == value {
			return i
		}
	}
	return -1
}

// fairLockScript is RFairLock's tryLockInnerAsync (above) for the lock
// command m from `from`.
func (r *Server) fairLockScript(ctx sim.Ctx, from sim.NodeID, m *sim.Msg, f FairTry, reply *Reply) {
	q := r.fair.of(m.Key)
	me := valueOf(m)
	for len(q.waiters) > 0 && q.waiters[0].timeout <= f.Now {
		stale := q.waiters[0]
		q.waiters = q.waiters[1:]
		if ctx.Tracing() {
			ctx.TraceSaid(traceFairQueue, OpLock.String(), fmt.Sprintf("stale waiter %s removed: its timeout %v is past the caller's clock %v",
				ctx.Sim().Nodes[stale.owner].Name, stale.timeout, f.Now),
				sim.Say("note.redis.fairStale", "node", ctx.Sim().Nodes[stale.owner].Name))
		}
	}
	kv, held := r.live(ctx, m.Key)
	if !held && (len(q.waiters) == 0 || q.waiters[0].value == me) {
		if len(q.waiters) > 0 {
			q.waiters = q.waiters[1:]
		}
		for i := range q.waiters {
			q.waiters[i].timeout -= f.Wait
		}
		r.lockScript(ctx, from, m, reply)
		return
	}
	if held && kv.value == me {
		r.lockScript(ctx, from, m, reply) // a re-entry: HINCRBY, PEXPIRE
		return
	}
	reply.Op = OpNil
	if q.index(me) >= 0 {
		return
	}
	ttl := kv.deadline - ctx.Wall()
	if !held {
		ttl = 0
	}
	if n := len(q.waiters); n > 0 && q.waiters[n-1].value != me {
		ttl = q.waiters[n-1].timeout - f.Now
	}
	q.waiters = append(q.waiters, fairWaiter{value: me, owner: from, timeout: ttl + f.Wait + f.Now})
	if ctx.Tracing() {
		ctx.TraceSaid(traceFairQueue, OpLock.String(), fmt.Sprintf("queued %d in line, its turn kept until %v on its clock", len(q.waiters), ttl+f.Wait+f.Now),
			sim.Say("note.redis.fairQueued", "n", fmt.Sprint(len(q.waiters))))
	}
}

// queueView is the fair lock's queue of key in the view: the waiters in
// their order and the time each keeps its turn, by the server's wall
// clock (the timeouts are on the queuers' clocks; the view says them as
// they are stored).
func (r *Server) queueView(s *sim.Sim, key string) []FairWaiterView {
	for _, q := range r.fair {
		if q.key != key {
			continue
		}
		out := make([]FairWaiterView, len(q.waiters))
		for i, w := range q.waiters {
			out[i] = FairWaiterView{Client: s.Nodes[w.owner].Name, Timeout: w.timeout}
		}
		return out
	}
	return nil
}

// FairWaiterView is one waiter of a fair lock's queue as the state
// picture shows it: who, and until when (on its own clock) it keeps its
// turn.
type FairWaiterView struct {
	Client  string
	Timeout time.Duration
}
