package redis

import (
	"fmt"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// redisClient is a Redisson RLock client of a single Redis master: the lock
// script to acquire (retried while held), watchdog renewal, the unlock
// script to release. Every command that gets no reply in RequestTimeout is
// resent at once, RedissonRetryAttempts times, before it fails.
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
	master   sim.NodeID
	value    string
	seq      int64
	pending  sim.Msg       // the request awaiting a reply (Op "" for none)
	attempt  int           // resends of the pending request so far
	deadline time.Duration // when the pending request times out, on the monotonic clock
	armed    bool          // a timeout timer is pending
	renewing bool
	renewals int
	reentry  reentry // the nested section of the reenter option (reenter.go)
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
	*c = redisClient{master: master}
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
	c.trySet(ctx)
}

// request sends a new command; send (re)sends the pending one.
func (c *redisClient) request(ctx sim.Ctx, m sim.Msg) {
	m.Key = LockKey
	c.pending = m
	c.attempt = 0
	c.send(ctx)
}

// send puts the pending command on the wire under a fresh sequence number,
// so a late reply to an earlier attempt is ignored, as Redisson ignores the
// reply of an attempt it cancelled.
func (c *redisClient) send(ctx sim.Ctx) {
	c.seq++
	c.pending.Seq = c.seq
	ctx.Send(c.master, c.pending)
	// One lazy timer serves every request: it is re-armed for the pending
	// request's deadline when it fires early, instead of being cancelled
	// and set again on each request.
	c.deadline = ctx.Mono() + RequestTimeout
	if !c.armed {
		c.armed = true
		ctx.After(RequestTimeout, sim.Timer{Kind: timerTimeout})
	}
}

func (c *redisClient) trySet(ctx sim.Ctx) {
	sc := ctx.Scenario()
	op := OpLock
	if Client.Of(sc) == ClientPlain {
		op = OpSet // SET key token NX PX ttl
	}
	c.request(ctx, Command{Op: op, Value: c.value, PX: sc.TTL.D(), Fenced: sc.Fencing}.Msg())
}

// renewAfter schedules the watchdog's next renewal TTL/3 from now, as
// Redisson's RenewalTask.schedule does after each run, whether the run
// renewed or failed (redisson/redisson
// redisson/src/main/java/org/redisson/renewal/RenewalTask.java, run: an
// error is logged and the task is scheduled again). Only an answer that
// the lock is gone (LockTask.renew: the field no longer exists) or the
// unlock cancels it.
func (c *redisClient) renewAfter(ctx sim.Ctx) {
	if c.State == sim.StateHolding && c.renewing {
		ctx.After(ctx.Scenario().TTL.D()/3, sim.Timer{Kind: timerWatchdog})
	}
}

func (c *redisClient) Receive(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	if handled, written := c.StorageReply(ctx, from, m); handled {
		if written {
			c.release(ctx)
		}
		return
	}
	if m.Seq != c.pending.Seq || c.pending.Op == sim.NoOp {
		return // a late reply to an attempt already timed out
	}
	req := c.pending
	c.pending = sim.Msg{}
	r := ReplyOf(m)
	if c.reentryAnswer(ctx, req.Op, r) {
		return
	}
	switch req.Op {
	case OpLock, OpSet:
		if c.State != sim.StateWaiting {
			return
		}
		if r.Op == OpOK {
			c.Grant(ctx, r.Token, 0)
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
		switch {
		case r.Int == 0 && req.Op == OpUnlock:
			ctx.TraceSaid(traceRelease, req.Op.String(), "returned 0: the hold count is still above 0, the key stays until its TTL runs out",
				sim.Say("note.redis.stillHeld"))
		case r.Int < 0:
			ctx.TraceSaid(traceRelease, req.Op.String(), "returned nil: the lock was no longer ours", sim.Say("note.redis.unlockNotOurs"))
		case r.Int == 0:
			ctx.TraceSaid(traceRelease, req.Op.String(), "returned 0: the lock was no longer ours", sim.Say("note.redis.releaseNotOurs"))
		}
	}
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
	case timerWatchdog:
		if c.State == sim.StateHolding && c.renewing && c.pending.Op == sim.NoOp {
			c.request(ctx, Command{Op: OpPExpire, Value: c.value, PX: ctx.Scenario().TTL.D()}.Msg())
		}
	case timerTimeout:
		c.armed = false
		if c.pending.Op == sim.NoOp {
			return
		}
		if left := c.deadline - ctx.Mono(); left > time.Microsecond {
			c.armed = true
			ctx.After(left, sim.Timer{Kind: timerTimeout})
			return
		}
		if c.attempt < RedissonRetryAttempts && Client.Of(ctx.Scenario()) != ClientPlain {
			c.attempt++
			ctx.TraceSaid(traceResend, c.pending.Op.String(), fmt.Sprintf("no reply in %v: resent (attempt %d of %d)", RequestTimeout, c.attempt+1, RedissonRetryAttempts+1),
				sim.Say("note.redis.resent", "timeout", RequestTimeout.String(), "n", fmt.Sprint(c.attempt+1), "of", fmt.Sprint(RedissonRetryAttempts+1)))
			c.send(ctx)
			return
		}
		req := c.pending
		c.pending = sim.Msg{}
		if ctx.Tracing() && Client.Of(ctx.Scenario()) == ClientPlain {
			ctx.TraceSaid(traceTimeout, req.Op.String(), fmt.Sprintf("no reply in %v", RequestTimeout),
				sim.Say("note.redis.noReplyPlain", "timeout", RequestTimeout.String()))
		} else if ctx.Tracing() {
			ctx.TraceSaid(traceTimeout, req.Op.String(), fmt.Sprintf("no reply to %d attempts of %v", RedissonRetryAttempts+1, RequestTimeout),
				sim.Say("note.redis.noReply", "timeout", RequestTimeout.String(), "n", fmt.Sprint(RedissonRetryAttempts+1)))
		}
		switch req.Op {
		case OpLock, OpSet:
			if c.State == sim.StateWaiting {
				c.retry(ctx, "timed out", "note.redis.timedOut")
			}
		case OpPExpire:
			ctx.Renewed(false)
			c.renewAfter(ctx) // a failed renewal is tried again, not given up
		}
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
	m := Command{Op: OpUnlock, Value: c.value, PX: ctx.Scenario().TTL.D()}.Msg()
	if Client.Of(ctx.Scenario()) == ClientPlain {
		m = Command{Op: OpCAD, Value: c.value}.Msg() // if GET == token then DEL
	}
	if PlainDel.Of(ctx.Scenario()) {
		m = Command{Op: OpDel}.Msg()
	}
	c.pending = sim.Msg{}
	c.request(ctx, m)
	c.Rest(ctx)
}
