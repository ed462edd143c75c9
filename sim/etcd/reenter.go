package etcd

import (
	"fmt"

	"github.com/lockscope/lockscope/sim"
)

// Reentry in clientv3's concurrency.Mutex (etcd-io/etcd, tag v3.5.33 —
// client/v3/concurrency/mutex.go is the same on branch release-3.5 and
// in v3.5.35, the conformance module's version): Lock's tryAcquire
// builds the key from the session's lease (myKey = pfx + lease ID) and
// sends Txn(If(CreateRevision(myKey) = 0).Then(Put, getOwner).Else(Get
// myKey, getOwner)) — "reuse key in case this session already holds the
// lock". A holder that locks again with the same session takes the Else
// branch, gets its own key's create revision back, finds its key is the
// owner ("if no key on prefix / the minimum rev is key, already hold the
// lock") and returns nil at once. Nothing counts it: the Mutex has no
// count field, and Unlock is a plain Delete(myKey) that then sets myKey
// "\x00" and myRev −1. So the inner Unlock deletes the lock key while the
// outer section still runs: the next waiter's watch fires and it holds
// the lock too. The outer section's later writes go out unprotected; a
// fenced write compares IsOwner() — CreateRevision("\x00") = −1, which a
// key that does not exist (revision 0) never meets — and is refused; the
// outer Unlock deletes "\x00", nothing. The Mutex does not refuse the
// re-entry.
type reentry struct {
	phase    reentryPhase
	released bool // the inner Unlock ran: the Mutex's myKey is "\x00", myRev −1
}

type reentryPhase uint8

const (
	reentryNone      reentryPhase = iota // not re-entered this grant
	reentryLocking                       // the second Lock's Txn is on its way
	reentryInside                        // Lock returned: inside the inner section
	reentryUnlocking                     // the inner Unlock's Delete is on its way
	reentryDone                          // back in the outer section
)

// Client phases of the re-entry's calls.
const (
	phReenter     = "reenter"     // the second Lock's tryAcquire Txn
	phInnerUnlock = "innerUnlock" // the inner Unlock's Delete
)

// armReentry, at a grant, schedules the re-entry the scenario asks for,
// in execution time.
func (c *etcdClient) armReentry(ctx sim.Ctx) {
	c.reentry = reentry{}
	if at := Reenter.Of(ctx.Scenario()).D(); at > 0 {
		ctx.Exec(at, sim.Timer{Kind: timerReenter, Seq: int64(c.Round)})
	}
}

// fireReentry handles the re-entry's timers; false for another timer.
func (c *etcdClient) fireReentry(ctx sim.Ctx, t sim.Timer) bool {
	if t.Kind != timerReenter && t.Kind != timerInnerUnlock {
		return false
	}
	if c.State != sim.StateHolding || t.Seq != int64(c.Round) || c.phase != phWork {
		return true // the grant it belonged to is over, or its work ended
	}
	if c.busy() {
		ctx.Exec(retryBackoff, t)
		return true
	}
	switch {
	case t.Kind == timerReenter && c.reentry.phase == reentryNone:
		c.reentry.phase = reentryLocking
		c.call(ctx, Txn{Kind: TxnLock, Key: c.myKey, Lease: c.lease}.Msg(), phReenter)
	case t.Kind == timerInnerUnlock && c.reentry.phase == reentryInside:
		c.reentry.phase = reentryUnlocking
		c.call(ctx, sim.Msg{Op: OpDelete, Key: c.myKey}, phInnerUnlock)
	}
	return true
}

// reentryAnswer takes the answer to the re-entry's Txn or Delete; false
// for another phase.
func (c *etcdClient) reentryAnswer(ctx sim.Ctx, m *sim.Msg) bool {
	switch c.phase {
	case phReenter:
		c.phase = phWork
		r := TxnRespOf(m)
		if r.Succeeded || (r.OwnerRev != r.Rev && r.OwnerKey != "") {
			// The key was gone (the lease expired) or is not the oldest:
			// Lock would wait; the outer section does not wait for it.
			c.reentry.phase = reentryDone
			ctx.TraceSaid(traceLock, OpTxn.String(), "the second Lock did not find its key the owner: no re-entry", sim.Say("note.etcd.reenterNotOwner"))
			return true
		}
		c.myRev = r.Rev
		c.reentry.phase = reentryInside
		ctx.TraceSaid(traceLock, OpTxn.String(), fmt.Sprintf("Lock again with the same session: %s is the owner (revision %d), it returns at once; the Mutex keeps no count", c.myKey, r.Rev),
			sim.Say("note.etcd.reentered", "key", c.myKey, "rev", fmt.Sprint(r.Rev)))
		ctx.Exec(Reenter.Of(ctx.Scenario()).D(), sim.Timer{Kind: timerInnerUnlock, Seq: int64(c.Round)})
		return true
	case phInnerUnlock:
		c.phase = phWork
		c.reentry.phase, c.reentry.released = reentryDone, true
		ctx.TraceSaid(traceLock, OpDelete.String(), fmt.Sprintf("inner Unlock deleted %s: the lock is free while the outer section still works", c.myKey),
			sim.Say("note.etcd.innerUnlock", "key", c.myKey))
		return true
	}
	return false
}

// reentryFailed is a failed re-entry call: the holder is back in its
// outer section (a failed Unlock is tried again, as the outer one is).
func (c *etcdClient) reentryFailed(ctx sim.Ctx) bool {
	switch c.phase {
	case phReenter:
		c.phase, c.reentry.phase = phWork, reentryDone
		return true
	case phInnerUnlock:
		c.phase, c.reentry.phase = phWork, reentryInside
		ctx.Exec(retryBackoff, sim.Timer{Kind: timerInnerUnlock, Seq: int64(c.Round)})
		return true
	}
	return false
}

// mutexKey is the key and revision the Mutex holds now: its own, or
// after an inner Unlock "\x00" and −1.
func (c *etcdClient) mutexKey() (string, int64) {
	if c.reentry.released {
		return "\x00", -1
	}
	return c.myKey, c.myRev
}

// holdWords says, for the state panel, where the holder's re-entry is:
// inside the inner section with no count kept, or unprotected after the
// inner Unlock.
func (c *etcdClient) holdWords() sim.Words {
	switch {
	case c.State != sim.StateHolding:
	case c.reentry.released:
		return sim.Say("hold.etcd.unprotected")
	case c.reentry.phase == reentryInside || c.reentry.phase == reentryUnlocking:
		return sim.Say("hold.etcd.reentered")
	}
	return sim.Words{}
}

// checkNested: the inner section, from at to 2·at into the work, must
// end before the work does.
func checkNested(sc *sim.Scenario) error {
	at := Reenter.Of(sc).D()
	if w := sc.Work.D(); at > 0 && 2*at >= w {
		return sim.FieldErr("reenter", sim.Say("field.reenterWork", "t", at.String(), "end", (2*at).String(), "work", w.String()),
			"%v: the inner section (%v to %v into the work) must end before the work (%v) does", at, at, 2*at, w)
	}
	return nil
}
