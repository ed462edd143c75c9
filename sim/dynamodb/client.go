package dynamodb

import (
	"fmt"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// lockClient is an application using AmazonDynamoDBLockClient
// (awslabs/amazon-dynamodb-lock-client at 601eab15fc03aef4aa70550f3963f4d0651ad08e,
// src/main/java/com/amazonaws/services/dynamodbv2/AmazonDynamoDBLockClient.java):
//
//   - acquireLock: read the item (GetItem). No item: PutItem with
//     attribute_not_exists. An item: remember its recordVersionNumber and
//     the instant of the read on this client's own monotonic clock
//     (LockItem's lookupTime, System.nanoTime), and add the item's
//     leaseDuration once to the time it will wait (millisecondsToWait, which
//     starts at additionalTimeToWaitForLock, DEFAULT_BUFFER_MS). Every
//     refreshPeriod read again: a new recordVersionNumber starts the count
//     again; the same one, seen for more than its leaseDuration
//     (LockItem.isExpired), is taken over by a PutItem conditioned on that
//     recordVersionNumber. A ConditionalCheckFailed or an unanswered call
//     is retried while the wait lasts; past it acquireLock throws
//     LockNotGrantedException, and the application calls it again after
//     retryDelay.
//   - the heartbeat thread (run): every heartbeatPeriod, for the held
//     lock, sendHeartbeat: if the lock has expired on the holder's own
//     clock since its last successful write, it is dropped from the held
//     locks (no more heartbeats; the worker is not told); otherwise an
//     UpdateItem conditioned on ownerName and recordVersionNumber writes a
//     fresh recordVersionNumber and restarts the holder's count from the
//     instant before the call. A ConditionalCheckFailed drops the lock
//     too.
//   - the session monitor (SessionMonitor.java, lockSessionMonitorChecker),
//     with safeTime: a thread sleeping until lookupTime + safeTime, which
//     then runs the callback once; the callback here tells the worker,
//     which looks before its write.
//   - releaseLock (deleteLockOnRelease, AcquireLockOptions' default
//     true): the lock leaves the held locks, then a DeleteItem conditioned
//     on ownerName and recordVersionNumber; it waits for a heartbeat in
//     flight (both synchronize on the LockItem).
//
// Nothing of this reaches the protected storage: the write the worker
// sends there carries no token, whatever the item's version.
type lockClient struct {
	sim.Loop
	table    sim.NodeID
	seq      int64
	main     pending // acquireLock's call
	hb       pending // the heartbeat thread's call
	rel      pending // releaseLock's call
	released bool    // releaseLock waits for the heartbeat in flight

	// acquireLock
	start  time.Duration // the call's start, on the monotonic clock
	wait   time.Duration // millisecondsToWait
	slept  bool          // alreadySleptOnceForOneLeasePeriod
	seen   bool          // lockTryingToBeAcquired is set
	seenAt time.Duration // its lookupTime, on the monotonic clock
	seenOf Reply         // the item as it was read
	putAt  time.Duration // lastUpdatedTime: the instant before the PutItem
	putRVN int64

	// the held lock (in the client's locks map)
	held       bool
	rvn        int64
	lease      time.Duration
	lastUpdate time.Duration // lookupTime: before the last successful write, on the monotonic clock
	heartbeats int
	monitor    bool // the session monitor's thread is running
}

// pending is a call awaiting DynamoDB's answer.
type pending struct {
	req   Request
	seq   int64
	at    time.Duration // when it was sent, on the monotonic clock
	timer sim.TimerID
	round int // the client's round when it was sent
}

func (p pending) busy() bool { return p.req.Op != sim.NoOp }

func (c *lockClient) Clone() sim.Process { cp := *c; return &cp }

func (c *lockClient) Start(ctx sim.Ctx) {
	if c.table == 0 {
		c.table = ctx.Lookup(TableName)
	}
	// The heartbeat thread starts with the client
	// (createHeartbeatBackgroundThread) and loops whether or not a lock
	// is held.
	ctx.After(HeartbeatPeriod.Of(ctx.Scenario()).D(), sim.Timer{Kind: timerHeartbeat})
	c.begin(ctx)
}

func (c *lockClient) Crash(ctx sim.Ctx) {
	table := c.table
	*c = lockClient{table: table}
}

func (c *lockClient) Restart(ctx sim.Ctx, persist bool) { c.Start(ctx) }

func (c *lockClient) begin(ctx sim.Ctx) {
	if c.Begin(ctx) {
		c.acquire(ctx)
	}
}

// acquire is one call of acquireLock.
func (c *lockClient) acquire(ctx sim.Ctx) {
	c.start = ctx.Mono()
	c.wait = DefaultBuffer
	c.slept, c.seen = false, false
	c.call(ctx, &c.main, Request{Op: OpGetItem})
}

// call sends r and waits for its answer in p, at most ReadTimeout.
func (c *lockClient) call(ctx sim.Ctx, p *pending, r Request) {
	c.seq++
	m := r.Msg()
	m.Seq = c.seq
	ctx.Send(c.table, m)
	*p = pending{req: r, seq: c.seq, at: ctx.Mono(), timer: ctx.After(ReadTimeout, sim.Timer{Kind: timerRead, Seq: c.seq}), round: c.Round}
}

// newRVN is a fresh recordVersionNumber (generateRecordVersionNumber: a
// random UUID).
func newRVN(ctx sim.Ctx) int64 { return ctx.Rand().Int64() }

func (c *lockClient) Receive(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	if handled, written := c.StorageReply(ctx, from, m); handled {
		if written {
			c.Release(ctx)
			c.releaseItem(ctx)
			c.Rest(ctx)
		}
		return
	}
	r := ReplyOf(m)
	switch {
	case c.main.busy() && m.Seq == c.main.seq:
		req := c.main
		c.main = pending{}
		ctx.Cancel(req.timer)
		c.answered(ctx, req.req, r)
	case c.hb.busy() && m.Seq == c.hb.seq:
		req := c.hb
		c.hb = pending{}
		ctx.Cancel(req.timer)
		c.heartbeatAnswered(ctx, req, r)
	case c.rel.busy() && m.Seq == c.rel.seq:
		ctx.Cancel(c.rel.timer)
		c.rel = pending{}
		if ctx.Tracing() {
			if r.Op == OpOK {
				ctx.TraceSaid(traceRelease, OpDeleteItem.String(), "releaseLock: the item is deleted", sim.Say("note.dynamodb.released"))
			} else {
				ctx.TraceSaid(traceRelease, OpDeleteItem.String(), "releaseLock returned false: someone else acquired the lock before it was released",
					sim.Say("note.dynamodb.releaseNotOurs"))
			}
		}
	}
}

// answered handles the answer to acquireLock's call.
func (c *lockClient) answered(ctx sim.Ctx, req Request, r Reply) {
	if c.State != sim.StateWaiting {
		return
	}
	switch req.Op {
	case OpGetItem:
		c.observed(ctx, r)
	case OpPutItem:
		if r.Op == OpOK {
			c.grant(ctx, req)
			return
		}
		c.afterTry(ctx) // LockNotGrantedException: someone else acquired the lock
	}
}

// observed is one read of the item in acquireLock's loop.
func (c *lockClient) observed(ctx sim.Ctx, r Reply) {
	now := ctx.Mono()
	switch {
	case !r.Found: // upsertAndMonitorNewLock
		c.put(ctx, Request{Op: OpPutItem, Cond: CondNotExists})
		return
	case !c.seen: // the first sight of someone else's item: wait at least its lease
		c.seen, c.seenAt, c.seenOf = true, now, r
		if !c.slept {
			c.slept = true
			c.wait += r.Lease
		}
		if ctx.Tracing() {
			ctx.TraceSaid(traceObserve, OpItem.String(), fmt.Sprintf("the item is %s's, recordVersionNumber %s: wait %v on this clock for it to stay unchanged",
				ctx.Sim().Nodes[r.Owner].Name, RVNString(r.RVN), r.Lease),
				sim.Say("note.dynamodb.seen", "owner", ctx.Sim().Nodes[r.Owner].Name, "rvn", RVNString(r.RVN), "lease", r.Lease.String()))
		}
	case r.RVN == c.seenOf.RVN:
		if now-c.seenAt > c.seenOf.Lease { // lockTryingToBeAcquired.isExpired(): upsertAndMonitorExpiredLock
			if ctx.Tracing() {
				ctx.TraceSaid(traceObserve, OpItem.String(), fmt.Sprintf("recordVersionNumber %s unchanged for %v on this clock: take the item over", RVNString(r.RVN), c.seenOf.Lease),
					sim.Say("note.dynamodb.takeOver", "rvn", RVNString(r.RVN), "lease", c.seenOf.Lease.String()))
			}
			c.put(ctx, Request{Op: OpPutItem, Cond: CondRVN, Expect: r.RVN})
			return
		}
	default: // the holder heartbeated: count again from this read
		c.seenAt, c.seenOf = now, r
		if ctx.Tracing() {
			ctx.TraceSaid(traceObserve, OpItem.String(), fmt.Sprintf("recordVersionNumber changed to %s: the %v count starts again", RVNString(r.RVN), r.Lease),
				sim.Say("note.dynamodb.changed", "rvn", RVNString(r.RVN), "lease", r.Lease.String()))
		}
	}
	c.afterTry(ctx)
}

// put sends acquireLock's PutItem with a fresh recordVersionNumber, the
// client's leaseDuration, and the instant before the call as the lock's
// lookupTime.
func (c *lockClient) put(ctx sim.Ctx, r Request) {
	c.putAt = ctx.Mono()
	c.putRVN = newRVN(ctx)
	r.RVN, r.Lease = c.putRVN, ctx.Scenario().TTL.D()
	c.call(ctx, &c.main, r)
}

// afterTry ends one pass of acquireLock's loop: past millisecondsToWait
// since the call began it throws LockNotGrantedException, else it sleeps
// refreshPeriod.
func (c *lockClient) afterTry(ctx sim.Ctx) {
	if ctx.Mono()-c.start > c.wait {
		var words sim.Words
		if ctx.Tracing() {
			ctx.TraceSaid(traceGiveUp, "", fmt.Sprintf("acquireLock: LockNotGrantedException after %v", c.wait),
				sim.Say("note.dynamodb.notGranted", "wait", c.wait.String()))
		}
		if !ctx.Quiet() {
			words = sim.Say("note.dynamodb.notGrantedWhy")
		}
		if c.Failed(ctx, "LockNotGrantedException", words) {
			ctx.After(sim.RetryDelay(ctx), sim.Timer{Kind: sim.TimerRetry})
		}
		return
	}
	ctx.After(RefreshPeriod.Of(ctx.Scenario()).D(), sim.Timer{Kind: timerRefresh})
}

// grant: the PutItem applied; the lock is the client's, counted from the
// instant before the call.
func (c *lockClient) grant(ctx sim.Ctx, req Request) {
	c.held, c.rvn, c.lease, c.lastUpdate, c.heartbeats = true, req.RVN, req.Lease, c.putAt, 0
	c.released = false
	c.Grant(ctx, 0, 0)
	if SafeTime.Of(ctx.Scenario()) > 0 {
		c.monitor = true
		c.armMonitor(ctx)
	}
}

// expired is LockItem.isExpired for the held lock: more than its lease
// since its last successful write, on this client's clock.
func (c *lockClient) expired(ctx sim.Ctx) bool { return ctx.Mono()-c.lastUpdate > c.lease }

// armMonitor sleeps the session monitor's thread until the danger zone:
// lookupTime + safeTime (millisecondsUntilDangerZoneEntered).
func (c *lockClient) armMonitor(ctx sim.Ctx) {
	left := c.lastUpdate + SafeTime.Of(ctx.Scenario()).D() - ctx.Mono()
	ctx.After(max(left, 0), sim.Timer{Kind: timerMonitor})
}

func (c *lockClient) Fire(ctx sim.Ctx, t sim.Timer) {
	switch c.Loop.Fire(ctx, t) {
	case sim.LoopWorkDone:
		c.finish(ctx)
		return
	case sim.LoopBegin:
		c.begin(ctx)
		return
	}
	switch t.Kind {
	case sim.TimerRetry:
		if c.State == sim.StateWaiting && !c.main.busy() {
			c.acquire(ctx)
		}
	case timerRefresh:
		if c.State == sim.StateWaiting && !c.main.busy() {
			c.call(ctx, &c.main, Request{Op: OpGetItem})
		}
	case timerHeartbeat:
		c.heartbeat(ctx)
	case timerMonitor:
		if !c.monitor || c.State != sim.StateHolding {
			return
		}
		if left := c.lastUpdate + SafeTime.Of(ctx.Scenario()).D() - ctx.Mono(); left > 0 {
			ctx.After(left, sim.Timer{Kind: timerMonitor})
			return
		}
		c.monitor = false // runSessionMonitor, and the thread ends
		var words sim.Words
		if ctx.Tracing() {
			ctx.TraceSaid(traceMonitor, "", fmt.Sprintf("session monitor: %v without a heartbeat, the lease enters its danger zone; the callback runs", SafeTime.Of(ctx.Scenario()).D()),
				sim.Say("note.dynamodb.dangerZone", "safe", SafeTime.Of(ctx.Scenario()).D().String()))
		}
		if !ctx.Quiet() {
			words = sim.Say("note.dynamodb.dangerZoneWhy")
		}
		c.Tell(ctx, "the session monitor's callback: the lease is in its danger zone", words)
	case timerRead:
		c.timedOut(ctx, t.Seq)
	}
}

// timedOut is a call with no answer in ReadTimeout: an SdkClientException.
func (c *lockClient) timedOut(ctx sim.Ctx, seq int64) {
	var p *pending
	switch seq {
	case c.main.seq:
		p = &c.main
	case c.hb.seq:
		p = &c.hb
	case c.rel.seq:
		p = &c.rel
	}
	if p == nil || !p.busy() {
		return
	}
	req := *p
	*p = pending{}
	if ctx.Tracing() {
		ctx.TraceSaid(traceTimeout, req.req.Op.String(), fmt.Sprintf("no answer in %v: SdkClientException", ReadTimeout),
			sim.Say("note.dynamodb.noAnswer", "timeout", ReadTimeout.String()))
	}
	switch p {
	case &c.main:
		if c.State == sim.StateWaiting {
			c.afterTry(ctx)
		}
	case &c.hb:
		c.heartbeatAnswered(ctx, req, Reply{})
	}
}

// heartbeat is one pass of the heartbeat thread (run, sendHeartbeat).
func (c *lockClient) heartbeat(ctx sim.Ctx) {
	period := HeartbeatPeriod.Of(ctx.Scenario()).D()
	if !c.held || c.hb.busy() {
		ctx.After(period, sim.Timer{Kind: timerHeartbeat})
		return
	}
	if c.expired(ctx) { // "Cannot send heartbeat because lock is not granted"
		c.held = false
		if ctx.Tracing() {
			ctx.TraceSaid(traceHeartbeat, "", fmt.Sprintf("the lock expired on this clock (%v since its last write): no more heartbeats", ctx.Mono()-c.lastUpdate),
				sim.Say("note.dynamodb.heartbeatExpired", "since", (ctx.Mono()-c.lastUpdate).String()))
		}
		ctx.After(period, sim.Timer{Kind: timerHeartbeat})
		return
	}
	c.call(ctx, &c.hb, Request{Op: OpUpdateItem, Cond: CondOwnerRVN, Expect: c.rvn, RVN: newRVN(ctx), Lease: ctx.Scenario().TTL.D()})
}

// heartbeatAnswered ends a heartbeat: the new version and lookupTime on
// success, the lock dropped on a failed condition; then the thread sleeps
// what is left of its period.
func (c *lockClient) heartbeatAnswered(ctx sim.Ctx, req pending, r Reply) {
	switch r.Op {
	case OpOK:
		ctx.Renewed(true)
		if c.held && req.round == c.Round {
			c.rvn, c.lease, c.lastUpdate = req.req.RVN, req.req.Lease, req.at
			c.heartbeats++
		}
	case OpCCF:
		ctx.Renewed(false)
		c.held = false
		if ctx.Tracing() {
			ctx.TraceSaid(traceHeartbeat, OpUpdateItem.String(), "someone else acquired the lock: no more heartbeats (the worker is not told)",
				sim.Say("note.dynamodb.heartbeatLost"))
		}
	default:
		ctx.Renewed(false)
	}
	if c.released {
		c.released = false
		c.sendRelease(ctx)
	}
	ctx.After(max(HeartbeatPeriod.Of(ctx.Scenario()).D()-(ctx.Mono()-req.at), 0), sim.Timer{Kind: timerHeartbeat})
}

// finish ends the work: the application's checks, then its write.
func (c *lockClient) finish(ctx sim.Ctx) {
	switch {
	case c.Told(): // the session monitor's callback ran
		c.Lost(ctx, "the session monitor's callback said the lease was in danger: nothing written", sim.Say("note.dynamodb.lostMonitor"))
		c.releaseItem(ctx)
	case CheckExpired.Of(ctx.Scenario()) && c.expired(ctx):
		c.Lost(ctx, "lockItem.isExpired() before the write: nothing written", sim.Say("note.dynamodb.lostExpired"))
		c.releaseItem(ctx)
	default:
		c.Write(ctx, 0)
	}
}

// releaseItem is releaseLock: the lock leaves the held locks (no more
// heartbeats, no monitor), then the conditional DeleteItem, after the
// heartbeat in flight if there is one.
func (c *lockClient) releaseItem(ctx sim.Ctx) {
	c.held, c.monitor = false, false
	if c.hb.busy() {
		c.released = true
		return
	}
	c.sendRelease(ctx)
}

func (c *lockClient) sendRelease(ctx sim.Ctx) {
	c.call(ctx, &c.rel, Request{Op: OpDeleteItem, Cond: CondOwnerRVN, Expect: c.rvn})
}
