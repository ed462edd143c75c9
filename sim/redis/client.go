package redis

import (
	"fmt"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// redisClient is a Redisson RLock client of a Redis master, as the
// release Client names does it (release.go): the lock script to acquire
// (retried while held), watchdog renewal every TTL/3, the unlock script
// to release. A command with no reply in RequestTimeout is resent after
// the release's retry delay, up to its retryAttempts, if the release
// resends it: every command up to 3.36; since 3.37 not the lock and
// unlock scripts of a lone master. With a replica (Sentinel's setup, not
// Redisson's single-server config), Redisson 4.7.0 sends each script in a
// batch with WAIT for the replicas (CommandAsyncService.syncedEval: one
// pipeline of EVALSHA and WAIT, no MULTI/EXEC, as CommandBatchService.
// executeAsync sends BatchOptions.defaults(); the simulator sends the
// script itself, not SCRIPT LOAD and EVALSHA); a
// batch is resent like any command (its RedisCommonBatchExecutor is built
// with noRetry false), the commands already answered left out
// (RedisCommonBatchExecutor.sendCommand). When WAIT answers 0 replicas,
// the script's answer is an error, NoSyncedSlavesException: a lock is
// unlocked again (RedissonBaseLock.handleNoSync) and the whole tryAcquire
// tried again after the retry delay, retryAttempts times
// (ServiceManager.execute); an unlock is tried again the same way, its
// latch answering for a run that already happened.
//
// With Client ClientPlain it is the redis.io recipe's client instead ("Correct
// Implementation with a Single Instance",
// https://redis.io/docs/latest/develop/use/patterns/distributed-locks/):
// SET key token NX PX ttl to acquire, the compare-and-delete script to
// release, and with Watchdog a compare-and-PEXPIRE every TTL/3. Its key is
// a string (no hash, no hold count), it sends no WAIT, and a command with
// no reply in RequestTimeout fails without a resend.
type redisClient struct {
	sim.Loop
	idx      int // client-(idx+1)
	master   sim.NodeID
	value    string
	seq      int64
	pending  sim.Msg       // the request awaiting a reply (Op "" for none)
	attempt  int           // resends of the pending request so far
	deadline time.Duration // when the pending request times out, on the monotonic clock
	armed    bool          // a timeout timer is pending
	renewing bool
	renewals int

	// The WAIT batch (Redisson 4.7.0 with a replica).
	batched   bool  // the pending script goes in a batch with WAIT
	waitN     int64 // the batch's WAIT numreplicas; 0: no WAIT in it
	answered  bool  // the script in the batch has answered
	answer    Reply // and this is its answer
	slaves    int64 // MasterSlaveEntry.availableSlaves, once read
	known     bool  // slaves has been read (availableSlaves is not -1)
	noSyncs   int   // ServiceManager.execute's attempts after NoSyncedSlavesException
	unlocking bool  // the pending unlock is handleNoSync's, after a lock no replica acknowledged
	latch     UnlockLatch
	reentry   reentry // the nested section of the reenter option (reenter.go)
}

func (c *redisClient) Clone() sim.Process { cp := *c; return &cp }

func (c *redisClient) detail() (string, sim.Words) {
	if c.renewing {
		return fmt.Sprintf("watchdog: %d renewals", c.renewals), sim.Say("detail.redis.watchdog", "n", fmt.Sprint(c.renewals))
	}
	return "", sim.Words{}
}

func (c *redisClient) Start(ctx sim.Ctx) {
	if c.master == 0 {
		c.master = ctx.Lookup("redis-1")
	}
	c.begin(ctx)
}

func (c *redisClient) Crash(ctx sim.Ctx) {
	master := c.master
	*c = redisClient{master: master, idx: c.idx}
}

func (c *redisClient) Restart(ctx sim.Ctx, persist bool) { c.Start(ctx) }

func (c *redisClient) begin(ctx sim.Ctx) {
	if !c.Begin(ctx) {
		return
	}
	c.value = fmt.Sprintf("%08x:1", ctx.Rand().Uint32())
	if Client.Of(ctx.Scenario()) == ClientPlain {
		c.value = c.value[:8] // the recipe's random token; Redisson's is its id and thread
	}
	c.noSyncs = 0
	c.trySet(ctx)
}

// request sends a new command; send (re)sends the pending one.
func (c *redisClient) request(ctx sim.Ctx, m sim.Msg) {
	m.Key = LockKey
	c.pending = m
	c.attempt = 0
	c.answered = false
	c.batched, c.waitN = false, 0
	if rel, ok := releaseOf(ctx.Scenario()); ok && rel.synced && Replica.Of(ctx.Scenario()) {
		c.batched = true
		if !c.known {
			c.slaves, c.known = c.connectedSlaves(ctx), true
		}
		c.waitN = c.slaves
	}
	c.send(ctx)
}

// connectedSlaves is the master's connected_slaves, which Redisson reads
// with INFO ALL while its entry's availableSlaves is -1
// (CommandAsyncService.syncedEval). The INFO's round trip is not
// simulated: the count is read off the master as it is now.
func (c *redisClient) connectedSlaves(ctx sim.Ctx) int64 {
	if m, ok := ctx.Sim().Nodes[c.master].Proc.(*Server); ok && m.Role == RoleMaster && (m.Replica != sim.None || m.replicaName != "") {
		return 1
	}
	return 0
}

// send puts the pending command on the wire under a fresh sequence number,
// so a late reply to an earlier attempt is ignored, as Redisson ignores the
// reply of an attempt it cancelled. In a batch the WAIT follows the script
// on the same connection, and a resend leaves out a script that answered.
func (c *redisClient) send(ctx sim.Ctx) {
	c.seq++
	c.pending.Seq = c.seq
	if !c.answered {
		ctx.Send(c.master, c.pending)
	}
	timeout := RequestTimeout
	if c.waitN > 0 {
		w := Wait{Replicas: c.waitN, Timeout: SlavesSyncTimeout}.Msg()
		w.Seq = c.seq
		ctx.Send(c.master, w)
		timeout += SlavesSyncTimeout // BaseRedisBatchExecutor.timeout: timeout + syncTimeout
	}
	// One lazy timer serves every request: it is re-armed for the pending
	// request's deadline when it fires early, instead of being cancelled
	// and set again on each request.
	c.deadline = ctx.Mono() + timeout
	if !c.armed {
		c.armed = true
		ctx.After(timeout, sim.Timer{Kind: timerTimeout})
	}
}

func (c *redisClient) trySet(ctx sim.Ctx) {
	sc := ctx.Scenario()
	op := OpLock
	if Client.Of(sc) == ClientPlain {
		op = OpSet // SET key token NX PX ttl
	}
	m := Command{Op: op, Value: c.value, PX: sc.TTL.D(), Fenced: sc.Fencing}.Msg()
	if rel, _ := releaseOf(sc); rel.fair {
		m = WithFairTry(m, FairTry{Now: ctx.Wall(), Wait: FairLockWaitTimeout})
	}
	c.request(ctx, c.rwCommand(ctx, m))
}

// unlock sends the unlock script (or the plain client's release) with
// the latch, if the release has one and it can be read again.
func (c *redisClient) unlock(ctx sim.Ctx) {
	sc := ctx.Scenario()
	m := Command{Op: OpUnlock, Value: c.value, PX: sc.TTL.D()}.Msg()
	if Client.Of(sc) == ClientPlain {
		m = Command{Op: OpCAD, Value: c.value}.Msg() // if GET == token then DEL
	}
	if PlainDel.Of(sc) {
		m = Command{Op: OpDel}.Msg()
	}
	// The latch is read again only by a resend or a retry of the same
	// unlock, which a lone master's no-retry unlock never has: it is set
	// only where a batch carries the unlock.
	if rel, ok := releaseOf(sc); ok && rel.latch && rel.synced && Replica.Of(sc) && m.Op == OpUnlock {
		if c.latch.ID == "" {
			c.latch = UnlockLatch{ID: fmt.Sprintf("%s:%d", ctx.Name(), c.seq+1), PX: rel.latchTTL(ctx)}
		}
		m = WithLatch(m, c.latch)
	}
	c.request(ctx, c.rwCommand(ctx, m))
}

// renewAfter schedules the watchdog's next renewal TTL/3 from now, as
// Redisson 4.7.0's RenewalTask.schedule does after each run, whether the
// run renewed or failed (redisson/redisson tag redisson-4.7.0
// redisson/src/main/java/org/redisson/renewal/RenewalTask.java, run: an
// error is logged and the task is scheduled again). Only an answer that
// the lock is gone (LockTask.buildChunk: the field no longer exists) or
// the unlock cancels it.
func (c *redisClient) renewAfter(ctx sim.Ctx) {
	if c.State == sim.StateHolding && c.renewing {
		ctx.After(ctx.Scenario().TTL.D()/3, sim.Timer{Kind: timerWatchdog})
	}
}

func (c *redisClient) Receive(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	if m.Op == OpSwitchMaster { // Sentinel's event: talk to the new master from now on
		c.master = switchMasterOf(m).To
		return
	}
	if handled, written := c.StorageReply(ctx, from, m); handled {
		if written {
			c.release(ctx)
		}
		return
	}
	if m.Seq != c.pending.Seq || c.pending.Op == sim.NoOp {
		return // a late reply to an attempt already timed out
	}
	synced := int64(-1)
	r := ReplyOf(m)
	switch {
	case m.Op == OpReplicas || m.Op == OpErr:
		if !c.answered {
			return // the script's answer is missing: the batch waits for its timeout
		}
		synced, r = r.Int, c.answer
		if m.Op == OpErr {
			synced = 0
		}
	case c.waitN > 0 && r.Op != OpReadOnly:
		c.answered, c.answer = true, r // the WAIT's answer completes the batch
		return
	}
	req := c.pending
	c.pending = sim.Msg{}
	c.answered = false
	if c.waitN > 0 && synced != c.waitN {
		c.known = false // CommandAsyncService.syncedEval: availableSlaves -1, read again next time
	}
	if c.waitN > 0 && synced == 0 {
		c.noSync(ctx, req, r)
		return
	}
	c.answered2(ctx, req, r)
}

// answered2 acts on the answer r to the command req.
func (c *redisClient) answered2(ctx sim.Ctx, req sim.Msg, r Reply) {
	if c.reentryAnswer(ctx, req.Op, r) {
		return
	}
	switch req.Op {
	case OpLock, OpSet:
		if c.State != sim.StateWaiting {
			return
		}
		if r.Op == OpOK {
			c.noSyncs = 0
			c.grant(ctx, r.Token) // a read hold for a reader (rwlock.go)
			c.armReentry(ctx)
			if Watchdog.Of(ctx.Scenario()) {
				c.renewing = true
				c.renewAfter(ctx)
			}
			return
		}
		if r.Op == OpReadOnly {
			c.retry(ctx, "READONLY: the node is a replica", "note.redis.readOnly")
			return
		}
		c.retry(ctx, "held by another client", "note.redis.held")
	case OpPExpire:
		ctx.Renewed(r.Int == 1)
		if r.Int == 1 {
			c.renewals++
			c.renewAfter(ctx)
		} else {
			c.renewing = false
			ctx.TraceSaid(traceWatchdog, OpPExpire.String(), "renewal returned 0: the lock is gone, renewal stops", sim.Say("note.redis.renewalGone"))
		}
	case OpUnlock, OpDel, OpCAD:
		c.unlocked(ctx, req, r)
	}
}

// unlocked reads an unlock's answer.
func (c *redisClient) unlocked(ctx sim.Ctx, req sim.Msg, r Reply) {
	if c.unlocking {
		c.unlocking = false
		c.retryLock(ctx)
		return
	}
	c.latch = UnlockLatch{}
	switch {
	case r.Op == OpReadOnly:
	case c.rwUnlocked(ctx, req, r): // the read–write lock's answers (rwlock.go)
	case r.Int == 0 && req.Op == OpUnlock:
		ctx.TraceSaid(traceRelease, req.Op.String(), "returned 0: the hold count is still above 0, the key stays until its TTL runs out",
			sim.Say("note.redis.stillHeld"))
	case r.Int < 0:
		ctx.TraceSaid(traceRelease, req.Op.String(), "returned nil: the lock was no longer ours", sim.Say("note.redis.unlockNotOurs"))
	case r.Int == 0:
		ctx.TraceSaid(traceRelease, req.Op.String(), "returned 0: the lock was no longer ours", sim.Say("note.redis.releaseNotOurs"))
	}
}

// noSync is NoSyncedSlavesException: the script ran on the master (r is
// its answer) but WAIT counted no replica that has it. A lock is unlocked
// again before tryAcquire is retried (RedissonBaseLock.handleNoSync; a
// lock the script refused is "unlocked" too, and the script answers nil);
// an unlock is retried with its latch; a renewal is an error RenewalTask
// logs before it schedules the next run.
func (c *redisClient) noSync(ctx sim.Ctx, req sim.Msg, r Reply) {
	if ctx.Tracing() {
		ctx.TraceSaid(traceNoSync, req.Op.String(), fmt.Sprintf("WAIT %d %v answered 0: no replica has it (NoSyncedSlavesException)", c.waitN, SlavesSyncTimeout),
			sim.Say("note.redis.noSynced", "n", fmt.Sprint(c.waitN), "timeout", SlavesSyncTimeout.String()))
	}
	switch req.Op {
	case OpLock:
		if c.State != sim.StateWaiting {
			return
		}
		c.unlocking = true
		c.latch = UnlockLatch{}
		c.unlock(ctx)
		c.latch = UnlockLatch{} // handleNoSync's unlock is not retried: its latch is its own
	case OpPExpire:
		ctx.Renewed(false)
		c.renewAfter(ctx)
	case OpUnlock:
		if c.unlocking {
			c.unlocking = false
			c.retryLock(ctx)
			return
		}
		rel, _ := releaseOf(ctx.Scenario())
		if c.noSyncs >= rel.retryAttempts {
			c.noSyncs = 0
			c.latch = UnlockLatch{}
			return
		}
		c.noSyncs++
		ctx.After(rel.retryDelay(ctx, c.noSyncs), sim.Timer{Kind: timerNoSync, Seq: c.seq})
	}
}

// retryLock is ServiceManager.execute after handleNoSync's unlock: the
// next tryAcquire after the retry delay, or, after retryAttempts, the
// lock call fails.
func (c *redisClient) retryLock(ctx sim.Ctx) {
	if c.State != sim.StateWaiting {
		return
	}
	rel, _ := releaseOf(ctx.Scenario())
	if c.noSyncs >= rel.retryAttempts {
		c.noSyncs = 0
		c.retry(ctx, "no replica acknowledged the lock", "note.redis.noSyncedGaveUp")
		return
	}
	c.noSyncs++
	ctx.After(rel.retryDelay(ctx, c.noSyncs), sim.Timer{Kind: timerNoSync, Seq: c.seq})
}

// retry counts a failed try and schedules the next; key is why's
// translation, built only for a run someone reads.
func (c *redisClient) retry(ctx sim.Ctx, why, key string) {
	var words sim.Words
	if !ctx.Quiet() {
		words = sim.Say(key)
	}
	if c.Failed(ctx, why, words) {
		ctx.After(sim.RetryDelay(ctx), sim.Timer{Kind: sim.TimerRetry})
	}
}

// resends says whether the release resends req after a response timeout.
func (c *redisClient) resends(sc *sim.Scenario, req sim.Msg) (redissonRelease, bool) {
	rel, ok := releaseOf(sc)
	if !ok {
		return rel, false // the plain client resends nothing
	}
	if c.batched || rel.resendScripts {
		return rel, true
	}
	return rel, req.Op != OpLock && req.Op != OpUnlock
}

func (c *redisClient) Fire(ctx sim.Ctx, t sim.Timer) {
	switch c.Loop.Fire(ctx, t) {
	case sim.LoopWorkDone:
		c.finish(ctx)
		return
	case sim.LoopBegin:
		c.begin(ctx)
		return
	}
	if c.fireReentry(ctx, t) {
		return
	}
	switch t.Kind {
	case sim.TimerRetry:
		if c.State == sim.StateWaiting {
			c.trySet(ctx)
		}
	case timerNoSync:
		if t.Seq != c.seq {
			return // something else was sent since: this retry is stale
		}
		switch {
		case c.State == sim.StateWaiting && c.pending.Op == sim.NoOp:
			c.trySet(ctx)
		case c.latch.ID != "" && c.pending.Op == sim.NoOp:
			c.unlock(ctx) // the same request id: its latch answers if it ran
		}
	case timerWatchdog:
		if c.State == sim.StateHolding && c.renewing && c.pending.Op == sim.NoOp {
			c.request(ctx, c.rwCommand(ctx, Command{Op: OpPExpire, Value: c.value, PX: ctx.Scenario().TTL.D()}.Msg()))
		}
	case timerResend:
		if c.pending.Op != sim.NoOp && c.pending.Seq == 0 && t.Seq == c.seq {
			c.send(ctx)
		}
	case timerTimeout:
		c.timedOut(ctx)
	}
}

// timedOut: the pending command's response timeout. RedisExecutor.
// scheduleResponseTimeout cancels the attempt and, while the command may
// be resent and attempt < retryAttempts, runs it again after the retry
// delay; otherwise the command fails.
func (c *redisClient) timedOut(ctx sim.Ctx) {
	c.armed = false
	if c.pending.Op == sim.NoOp || c.pending.Seq == 0 {
		return
	}
	if left := c.deadline - ctx.Mono(); left > time.Microsecond {
		c.armed = true
		ctx.After(left, sim.Timer{Kind: timerTimeout})
		return
	}
	timeout := RequestTimeout
	if c.waitN > 0 {
		timeout += SlavesSyncTimeout
	}
	sc := ctx.Scenario()
	if rel, ok := c.resends(sc, c.pending); ok && c.attempt < rel.retryAttempts {
		d := rel.retryDelay(ctx, c.attempt)
		c.attempt++
		ctx.TraceSaid(traceResend, c.pending.Op.String(), fmt.Sprintf("no reply in %v: resent after %v (attempt %d of %d)", timeout, d, c.attempt+1, rel.retryAttempts+1),
			sim.Say("note.redis.resentAfter", "timeout", timeout.String(), "delay", d.String(), "n", fmt.Sprint(c.attempt+1), "of", fmt.Sprint(rel.retryAttempts+1)))
		c.pending.Seq = 0 // the cancelled attempt's late reply is ignored
		c.seq++
		ctx.After(d, sim.Timer{Kind: timerResend, Seq: c.seq})
		return
	}
	req := c.pending
	c.pending = sim.Msg{}
	c.answered = false
	rel, redisson := releaseOf(sc)
	if ctx.Tracing() {
		if _, resent := c.resends(sc, req); resent {
			ctx.TraceSaid(traceTimeout, req.Op.String(), fmt.Sprintf("no reply to %d attempts of %v each", rel.retryAttempts+1, timeout),
				sim.Say("note.redis.noReply", "timeout", timeout.String(), "n", fmt.Sprint(rel.retryAttempts+1)))
		} else {
			ctx.TraceSaid(traceTimeout, req.Op.String(), fmt.Sprintf("no reply in %v, and no resend", timeout),
				sim.Say("note.redis.noReplyNoResend", "timeout", timeout.String()))
		}
	}
	switch req.Op {
	case OpLock, OpSet:
		if c.State == sim.StateWaiting {
			c.retry(ctx, "timed out", "note.redis.timedOut")
		}
	case OpUnlock:
		if c.unlocking {
			c.unlocking = false
			c.retryLock(ctx)
		}
		c.latch = UnlockLatch{}
	case OpPExpire:
		ctx.Renewed(false)
		if redisson && rel.dropOnFailure {
			c.renewing = false
			ctx.TraceSaid(traceWatchdog, OpPExpire.String(), "the renewal failed: the lock is dropped from renewal for good (renewExpiration, up to 3.43)",
				sim.Say("note.redis.renewalDropped"))
			return
		}
		c.renewAfter(ctx) // a failed renewal is tried again at the next run, not given up
	}
}

// finish ends the work: the write goes to the storage (Redisson's lock
// has nothing to check before it), and release follows its answer.
func (c *redisClient) finish(ctx sim.Ctx) { c.Write(ctx, c.Token) }

// release ends the critical section once the storage answered the write.
// The unlock also cancels the watchdog (RedissonBaseLock.unlockAsync0
// calls cancelExpirationRenewal whatever the script answers).
func (c *redisClient) release(ctx sim.Ctx) {
	c.Release(ctx)
	c.reentry = reentry{}
	c.renewing = false
	c.pending = sim.Msg{}
	c.unlocking, c.noSyncs = false, 0
	c.latch = UnlockLatch{}
	c.unlock(ctx)
	c.Rest(ctx)
}
