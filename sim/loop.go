package sim

import (
	"fmt"
	"strconv"
	"time"
)

// Loop is the part of every client that is the same in all modes: rounds
// of ask, work (execution time), write to the storage, release, think.
// A mode's client embeds it and calls Begin, Grant, Finish and Fire.
type Loop struct {
	Round   int         // rounds started
	State   ClientState // idle, waiting, holding, done
	Token   int64       // token of the current grant
	Tries   int         // failed tries in this round
	work    TimerID
	think   TimerID
	stopped bool // a holder that stopped working (zookeeper SUSPENDED)
	told    bool // a holder its library told it may have lost the lock: it no longer believes, it still works (Tell)
	shared  bool // the current grant is a read hold of a read–write lock (GrantShared)

	storeSeq   int64      // numbers the requests to the storage
	store      storageReq // the request to the storage awaiting its answer
	writing    bool       // a write is sent or about to be, not yet answered
	writeToken int64      // the token the write carries
	writeRound int        // the round the write belongs to
}

// retrying reports whether the client is asking again after a failed try
// this round: what it sends then repeats what its first try sent
// (pacing.go).
func (l *Loop) retrying() bool { return l.State == StateWaiting && l.Tries > 0 }

// looping is a client that embeds Loop.
type looping interface{ retrying() bool }

// Begin starts the next round; false means the client has done its rounds.
func (l *Loop) Begin(ctx Ctx) bool {
	sc := ctx.Scenario()
	if sc.Rounds > 0 && l.Round >= sc.Rounds {
		l.State = StateDone
		return false
	}
	l.Round++
	l.Tries = 0
	l.State = StateWaiting
	l.stopped, l.told = false, false
	ctx.Waiting()
	return true
}

// Grant records the grant and starts the critical section's work: a read
// of the protected value from the storage (with the token when fencing is
// on), then the work itself, in execution time.
func (l *Loop) Grant(ctx Ctx, token int64, validity time.Duration) {
	l.State = StateHolding
	l.told, l.shared = false, false
	l.Token = token
	ctx.Granted(token, validity)
	l.startWork(ctx, token)
}

// GrantShared is Grant for a read hold of a read–write lock: readers read,
// writers write. The reader's critical section is its work and then one
// read of the protected value, sent where a writer sends its write (a
// fault tied to "before-write" strikes before it), whose answer ends the
// section as a write's does (StorageReply's written), so the mode releases
// as it does after a write.
func (l *Loop) GrantShared(ctx Ctx, token int64, validity time.Duration) {
	l.State = StateHolding
	l.told, l.shared = false, true
	l.Token = token
	ctx.GrantedShared(token, validity)
	l.work = ctx.Exec(ctx.Scenario().Work.D(), Timer{Kind: timerWork})
	ctx.Sim().reached(ctx.ID(), StepGranted, l.Round)
}

// Shared reports whether the current grant is a read hold (GrantShared).
func (l *Loop) Shared() bool { return l.shared }

// startWork is a writer's read of the protected value (with the token when
// fencing is on) and its work, in execution time.
func (l *Loop) startWork(ctx Ctx, token int64) {
	if !valueInLockService(ctx.Scenario()) {
		l.storageSend(ctx, OpRead, token)
	}
	l.work = ctx.Exec(ctx.Scenario().Work.D(), Timer{Kind: timerWork})
	ctx.Sim().reached(ctx.ID(), StepGranted, l.Round)
}

// Again starts the next period of a leader's work in the same grant (an
// election's leader leads until it fails, is cut off or resigns, working
// period after period): a read of the protected value, then the work,
// without a new grant. A holder that is not holding or has stopped is
// left as it is.
func (l *Loop) Again(ctx Ctx) {
	if l.State != StateHolding || l.stopped {
		return
	}
	if !valueInLockService(ctx.Scenario()) {
		l.storageSend(ctx, OpRead, l.Token)
	}
	l.work = ctx.Exec(ctx.Scenario().Work.D(), Timer{Kind: timerWork})
}

// Write is the end of the work: the client has made its last check and
// now sends its write to the storage. A fault tied to "before-write"
// strikes here, after the check: a pause holds the write back until it
// ends, and nothing is checked again. The mode releases the lock when
// StorageReply says the write was answered.
func (l *Loop) Write(ctx Ctx, token int64) {
	l.writing, l.writeToken, l.writeRound = true, token, l.Round
	ctx.Sim().reached(ctx.ID(), StepBeforeWrite, l.Round)
	ctx.Exec(0, Timer{Kind: timerWrite, Seq: int64(l.Round)})
}

// Writing reports whether a write is on its way and not yet answered.
func (l *Loop) Writing() bool { return l.writing }

// Failed counts a failed try; it reports whether the client may try again
// (false: it gave up, and the round is over).
func (l *Loop) Failed(ctx Ctx, why string, words Words) bool {
	l.Tries++
	ctx.s.Check.failedTry(ctx.s.now, ctx.id)
	if t := ctx.Scenario().Tries; t > 0 && l.Tries >= t {
		ctx.GaveUp(fmt.Sprintf("%s; gave up after %d tries", why, l.Tries),
			say("note.gaveUp", "tries", strconv.Itoa(l.Tries)).Part("why", words))
		l.Rest(ctx)
		return false
	}
	return true
}

// Lost ends the belief without a release (lease known lost, session LOST):
// the work is abandoned and nothing is written. A holder told before
// (Tell) stopped believing then: this is where its worker acts on it.
func (l *Loop) Lost(ctx Ctx, why string, words Words) {
	if l.State != StateHolding {
		return
	}
	ctx.Cancel(l.work)
	l.work = 0
	ctx.Unheld(why, words)
	l.untold(ctx)
	l.Rest(ctx)
}

// Stop makes a holder stop working while keeping its place (zookeeper
// SUSPENDED with respectSuspended): it writes nothing until Resume. A
// holder told before (Tell) stopped believing then; this is its worker's
// check, where it stops.
func (l *Loop) Stop(ctx Ctx, why string, words Words) {
	if l.State != StateHolding || l.stopped {
		return
	}
	l.stopped = true
	ctx.Cancel(l.work)
	l.work = 0
	ctx.Unheld(why, words)
	l.untold(ctx)
}

// Tell is the holder's library telling it, now, that it may no longer
// hold the lock: Curator's SUSPENDED or LOST to the application's
// ConnectionStateListener (apache/curator, curator-framework/src/main/
// java/org/apache/curator/framework/state/ConnectionStateManager.java,
// processEvents), etcd's Session.Done() closing (etcd-io/etcd,
// client/v3/concurrency/session.go). Its belief ends at this instant (the
// timeline's lane, overlaps and violations read beliefs), but its work
// goes on: the worker looks at what it was told only at its next check
// (the mode's check before its write, which calls Stop or Lost), or never
// (etcd's Mutex has none: the write goes out), and a write it sends still
// lands. Resume makes it believe again. A holder that is not holding, was
// told already, has stopped or has released (an etcd holder waiting for
// its unlock's answer) is left as it is.
func (l *Loop) Tell(ctx Ctx, why string, words Words) {
	if l.State != StateHolding || l.told || l.stopped || !ctx.s.Check.Holding(ctx.id) {
		return // not holding, or its belief already ended (told, stopped, released)
	}
	l.told = true
	ctx.Unheld(why, words)
	ctx.s.Check.tell(ctx.id)
}

// Told reports whether the holder was told it may have lost the lock and
// works on without believing it holds it (Tell).
func (l *Loop) Told() bool { return l.told }

// untold ends a told holder's critical section (it stopped, lost or
// released).
func (l *Loop) untold(ctx Ctx) {
	if l.told {
		l.told = false
		ctx.s.Check.untell(ctx.id)
	}
}

// Resume is the library telling a stopped or told holder that its lock
// is still its own (Curator: RECONNECTED in the same session after
// SUSPENDED; its recipe's documentation: "If a SUSPENDED state is
// reported you cannot be certain that you still hold the lock unless you
// subsequently receive a RECONNECTED state", apache/curator-site,
// docs/recipes-shared-reentrant-lock.md). A stopped holder works again,
// from the start, as a new grant; a told one, whose work went on, believes
// again from now in the same grant.
func (l *Loop) Resume(ctx Ctx, token int64, validity time.Duration) {
	switch {
	case l.State != StateHolding:
	case l.stopped && l.shared:
		l.stopped = false
		l.GrantShared(ctx, token, validity)
	case l.stopped:
		l.stopped = false
		l.Grant(ctx, token, validity)
	case l.told:
		l.told = false
		ctx.s.Check.believeAgain(ctx.s.now, ctx.id)
	}
}

// Finished reports whether the client has done all its rounds.
// A client whose write is still on its way to the storage is not done:
// the write may yet land.
func (l *Loop) Finished() bool { return l.State == StateDone && !l.writing }

// Stopped reports whether the holder has stopped working.
func (l *Loop) Stopped() bool { return l.stopped }

// Rest ends the round: think, then Fire returns LoopBegin for the next one.
func (l *Loop) Rest(ctx Ctx) {
	l.State = StateIdle
	if sc := ctx.Scenario(); sc.Rounds > 0 && l.Round >= sc.Rounds {
		l.State = StateDone
		return
	}
	l.think = ctx.After(ctx.Scenario().Think.D(), Timer{Kind: timerThink})
}

// Release ends the belief voluntarily, after the write; the mode then sends
// its release request and calls Rest. A told holder (Tell) that worked on
// and wrote releases too, though it no longer believed it held the lock.
func (l *Loop) Release(ctx Ctx) {
	var words Words
	if ctx.Tracing() {
		words = say("note.release")
	}
	if l.told {
		ctx.s.Check.released(ctx.s.now, ctx.id)
	}
	ctx.Unheld(WhyRelease, words)
	l.untold(ctx)
}

// LoopStep is what a timer of the Loop's own asks of the mode's client.
type LoopStep uint8

// What Loop.Fire asks of the mode's client.
const (
	LoopNothing  LoopStep = iota // the timer was the loop's and is handled, or not the loop's
	LoopWorkDone                 // the work is done: the mode checks what it checks and calls Write
	LoopBegin                    // the next round should begin
	LoopWrite                    // a mode that keeps the value itself sends its guarded write now
)

// Fire handles the loop's own timers and says what the mode's client
// should do next.
func (l *Loop) Fire(ctx Ctx, t Timer) LoopStep {
	switch t.Kind {
	case timerWork:
		l.work = 0
		if l.State != StateHolding || l.stopped {
			return LoopNothing
		}
		return LoopWorkDone
	case timerThink:
		l.think = 0
		return LoopBegin
	case timerWrite:
		if l.shared {
			l.storageSend(ctx, OpRead, l.writeToken) // a reader's read ends its section
			return LoopNothing
		}
		if valueInLockService(ctx.Scenario()) {
			return LoopWrite // the mode sends its own guarded write
		}
		l.storageSend(ctx, OpWrite, l.writeToken)
	case storageRT:
		l.storageResend(ctx, t)
	}
	return LoopNothing
}

// Reset forgets everything, as a crash does.
func (l *Loop) Reset() { *l = Loop{} }

// RetryDelay is the jittered wait before the next try: uniform in
// [retryDelay/2, 3·retryDelay/2), so it averages retryDelay.
func RetryDelay(ctx Ctx) time.Duration {
	d := ctx.Scenario().RetryDelay.D()
	if d <= 0 {
		return 0
	}
	return d/2 + time.Duration(ctx.Rand().Int64N(int64(d)))
}
