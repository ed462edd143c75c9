package redis

import (
	"fmt"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// reentry is where a holder is in its nested section (the reenter
// option): Redisson's RLock is reentrant, so the same client (its id and
// thread, the hash's field) locking again while it holds the lock runs
// the lock script, which finds its own field and HINCRBYs it to 2
// (redisson/redisson, tag redisson-4.7.0,
// redisson/src/main/java/org/redisson/RedissonLock.java,
// tryLockInnerAsync: `hexists KEYS[1] ARGV[2] == 1` → `hincrby … 1`,
// `pexpire`). Its inner unlock decrements the count to 1 and PEXPIREs the
// key, answering 0: the lock is still held (unlockInnerAsync: `counter >
// 0` → pexpire, return 0); only the outer unlock reaches 0 and deletes
// the key. The watchdog goes on renewing through the inner unlock: its
// entry counts the thread's locks too (renewal/LockEntry.java,
// addThreadId / removeThreadId: the thread is dropped at 0).
type reentry struct {
	phase reentryPhase
	depth int // the hold count the last lock or unlock script answered; 0 outside a grant
}

type reentryPhase uint8

const (
	reentryNone      reentryPhase = iota // not re-entered this grant
	reentryLocking                       // the second lock script is on its way
	reentryInside                        // inside the inner section
	reentryUnlocking                     // the inner unlock is on its way
	reentryDone                          // back in the outer section
)

// Reentered is the hold count the holder's scripts last answered (2
// inside its inner section, 1 outside it); 0 when it holds nothing.
func (c *redisClient) Reentered() int { return c.reentry.depth }

// armReentry, at a grant, schedules the re-entry the scenario asks for,
// in execution time (a pause holds it back, as it holds back the work).
func (c *redisClient) armReentry(ctx sim.Ctx) {
	c.reentry = reentry{depth: 1}
	if at := Reenter.Of(ctx.Scenario()).D(); at > 0 {
		ctx.Exec(at, sim.Timer{Kind: timerReenter, Seq: int64(c.Round)})
	}
}

// fireReentry handles the re-entry's timers; false for another timer.
func (c *redisClient) fireReentry(ctx sim.Ctx, t sim.Timer) bool {
	if t.Kind != timerReenter && t.Kind != timerInnerUnlock {
		return false
	}
	if c.State != sim.StateHolding || t.Seq != int64(c.Round) {
		return true // the grant it belonged to is over
	}
	if c.pending.Op != sim.NoOp { // a renewal is on its way: lock once it is answered
		ctx.Exec(time.Millisecond, t)
		return true
	}
	sc := ctx.Scenario()
	switch {
	case t.Kind == timerReenter && c.reentry.phase == reentryNone:
		c.reentry.phase = reentryLocking
		c.request(ctx, Command{Op: OpLock, Value: c.value, PX: sc.TTL.D(), Fenced: sc.Fencing}.Msg())
	case t.Kind == timerInnerUnlock && c.reentry.phase == reentryInside:
		c.reentry.phase = reentryUnlocking
		c.request(ctx, Command{Op: OpUnlock, Value: c.value, PX: sc.TTL.D()}.Msg())
	}
	return true
}

// reentryAnswer takes the answer to the re-entry's lock or inner unlock;
// false for another answer.
func (c *redisClient) reentryAnswer(ctx sim.Ctx, req sim.Op, r Reply) bool {
	switch {
	case req == OpLock && c.reentry.phase == reentryLocking && c.State == sim.StateHolding:
		if r.Op != OpOK {
			// The key is gone or another's (expired while the holder
			// worked): Redisson's lock() would wait for it; the outer
			// section does not wait, it goes on as it was.
			c.reentry.phase = reentryDone
			ctx.TraceSaid(traceReenter, OpLock.String(), "the second lock found the key not ours: no re-entry", sim.Say("note.redis.reenterRefused"))
			return true
		}
		c.reentry.phase, c.reentry.depth = reentryInside, int(r.Int)
		ctx.TraceSaid(traceReenter, OpLock.String(), fmt.Sprintf("locked again while holding: hold count %d, no wait", r.Int),
			sim.Say("note.redis.reenterHeld", "n", fmt.Sprint(r.Int)))
		ctx.Exec(Reenter.Of(ctx.Scenario()).D(), sim.Timer{Kind: timerInnerUnlock, Seq: int64(c.Round)})
		return true
	case req == OpUnlock && c.reentry.phase == reentryUnlocking && c.State == sim.StateHolding:
		c.reentry.phase = reentryDone
		if r.Int == 0 {
			c.reentry.depth--
			ctx.TraceSaid(traceReenter, OpUnlock.String(), fmt.Sprintf("inner unlock returned 0: hold count %d, the lock stays held", c.reentry.depth),
				sim.Say("note.redis.innerUnlock", "n", fmt.Sprint(c.reentry.depth)))
		} else {
			c.reentry.depth = 0
			ctx.TraceSaid(traceRelease, OpUnlock.String(), "inner unlock: the lock was no longer ours", sim.Say("note.redis.unlockNotOurs"))
		}
		return true
	}
	return false
}

// validateReenter checks the reenter option against the rest of sc: the
// plain client does not re-enter (its SET NX fails against its own key),
// and the inner section must end before the work does.
func validateReenter(sc *sim.Scenario) error {
	at := Reenter.Of(sc).D()
	if at == 0 {
		return nil
	}
	if Client.Of(sc) == ClientPlain {
		return sim.FieldErr("reenter", sim.Say("field.reenterPlain"),
			"the plain client is not reentrant: its SET NX fails against its own key; use Redisson's client")
	}
	return checkNested(sc, at)
}

// checkNested: the inner section, from at to 2·at into the work, must
// end before the work does.
func checkNested(sc *sim.Scenario, at time.Duration) error {
	if w := sc.Work.D(); 2*at >= w {
		return sim.FieldErr("reenter", sim.Say("field.reenterWork", "t", at.String(), "end", (2*at).String(), "work", w.String()),
			"%v: the inner section (%v to %v into the work) must end before the work (%v) does", at, at, 2*at, w)
	}
	return nil
}
