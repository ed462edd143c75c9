package kubernetes

import (
	"fmt"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// elector is an application running client-go's LeaderElector on a
// LeaseLock (kubernetes/client-go at tag v0.37.0-beta.0,
// tools/leaderelection/leaderelection.go, resourcelock/leaselock.go):
//
//   - Run: acquire, then (leading) renew; when renew returns, release if
//     ReleaseOnCancel, then OnStoppedLeading. The application's work
//     (OnStartedLeading) runs period after period on the sim.Loop; when
//     the elector stops leading the worker is told (its context is
//     cancelled) and the period in progress finishes and writes, as a
//     controller's sync in progress does; then the process exits and its
//     supervisor starts it again after think (a new LeaderElector, which
//     has observed nothing).
//   - acquire: wait.JitterUntil(tryAcquireOrRenew, RetryPeriod,
//     JitterFactor, sliding): a try now, then RetryPeriod + rand × 1.2 ×
//     RetryPeriod after each failed one ends.
//   - renew: wait.Until(RetryPeriod) of wait.PollUntilContextTimeout(
//     RetryPeriod, RenewDeadline, immediate): a try now; after a failed
//     one the next at the poll's next tick (ticks RetryPeriod apart, not
//     sliding); a success ends the poll, and the next poll starts
//     RetryPeriod later. A poll that has not succeeded RenewDeadline after
//     it started (on this clock) ends with the context's error, the call
//     in flight abandoned: the leader stops leading.
//   - tryAcquireOrRenew: the fast path first: a leader whose lease is
//     valid (isLeaseValid: observedTime + the observed record's
//     leaseDurationSeconds is after now) updates without a Get. Otherwise
//     Get: 404 is a Create; a record whose bytes differ from the last
//     observed (observedRawRecord; its times are JSON's whole seconds)
//     becomes the observed record at this instant (observedTime, on this
//     client's monotonic clock). A record held by another and still valid
//     on this clock is a failed try; otherwise an Update with the Get's
//     resourceVersion: the leader's keeps acquireTime and
//     leaseTransitions, a takeover adds one to leaseTransitions.
//   - release (ReleaseOnCancel): Get; if this client is the observed
//     holder, an Update with holderIdentity empty, leaseDurationSeconds 1
//     and leaseTransitions kept, again on a 409 Conflict.
//
// The loops are kubernetes/apimachinery's at tag v0.37.0-beta.0 (commit
// 63a9f3d1b8dd467b263aedd41b99e58da6c015a3), pkg/util/wait: Jitter
// (duration + rand.Float64() × maxFactor × duration), BackoffUntilWithContext
// (sliding: the wait starts when f returns), PollUntilContextTimeout and
// loopConditionUntilContext (not sliding: the ticker runs from the poll's
// start, t.Next() at each tick before the condition; the context's
// deadline ends it).
//
// Every call has the leader-election client's request timeout,
// RenewDeadline (kubernetes/kubernetes,
// cmd/kube-controller-manager/app/options/options.go, Config:
// config.Timeout = s.Generic.LeaderElection.RenewDeadline.Duration for
// its "leader-election" client).
type elector struct {
	sim.Loop
	api sim.NodeID
	seq int64

	call pending // the one call in flight: tryAcquireOrRenew and release are sequential

	// The LeaderElector's bookkeeping.
	observed     LeaseSpec     // observedRecord
	observedRaw  LeaseSpec     // observedRawRecord: the record as JSON has it (whole seconds)
	observedTime time.Duration // on this client's monotonic clock
	cached       bool          // LeaseLock.lease is set (a Get or Create answered)
	rv           int64         // its resourceVersion

	phase    phase
	gen      int64 // the timers of the current loop carry it
	try      try   // the tryAcquireOrRenew in progress
	tryTimer sim.TimerID
	deadline time.Duration // renew: the poll's context deadline, on this clock
	tick     time.Duration // renew: the poll's next tick, on this clock
	dlTimer  sim.TimerID
	periods  int  // periods of work led
	released bool // release() done (or given up) for this leadership
	workOver bool // the worker has ended its last period
}

// phase is where the elector's Run is.
type phase uint8

const (
	phIdle    phase = iota // not running: between rounds
	phAcquire              // acquire's JitterUntil
	phRenew                // leading: renew's loop
	phRelease              // release() after renew returned
	phDone                 // Run returned: the worker finishes its period
)

// stage is the step of a tryAcquireOrRenew or a release.
type stage uint8

const (
	stNone   stage = iota
	stFast         // the leader's optimistic Update
	stGet          // Get
	stCreate       // Create after a 404
	stUpdate       // Update after the Get
	stRelGet       // release's Get
	stRelPut       // release's Update
)

// try is one tryAcquireOrRenew: its now and the record it writes.
type try struct {
	stage stage
	now   time.Duration // metav1.Now() at its start, on the monotonic clock
	spec  LeaseSpec
}

// pending is the call awaiting the apiserver's answer.
type pending struct {
	seq   int64
	timer sim.TimerID
}

func (c *elector) Clone() sim.Process { cp := *c; return &cp }

func (c *elector) Start(ctx sim.Ctx) {
	if c.api == 0 {
		c.api = ctx.Lookup(APIServerName)
	}
	c.begin(ctx)
}

// Crash forgets everything but the apiserver's address: the process is
// gone, its LeaderElector with it.
func (c *elector) Crash(ctx sim.Ctx) { *c = elector{api: c.api, gen: c.gen + 1, seq: c.seq} }

func (c *elector) Restart(ctx sim.Ctx, persist bool) { c.Start(ctx) }

// begin is Run: a new LeaderElector, which has observed nothing.
func (c *elector) begin(ctx sim.Ctx) {
	if !c.Begin(ctx) {
		return
	}
	api, seq, gen := c.api, c.seq, c.gen
	loop := c.Loop
	*c = elector{Loop: loop, api: api, seq: seq, gen: gen + 1, phase: phAcquire} // a timer of the last run is not this one's
	c.tryAcquireOrRenew(ctx)
}

// leaseDuration is LeaseDuration as the record writes it: whole seconds.
func leaseSeconds(sc *sim.Scenario) int { return int(sc.TTL.D() / time.Second) }

// isLeader is IsLeader: the observed record's holder is this client.
func (c *elector) isLeader(ctx sim.Ctx) bool { return c.observed.Holder == ctx.Name() }

// validUntil is when, on this clock, the observed record's lease runs out.
func (c *elector) validUntil() time.Duration {
	return c.observedTime + time.Duration(c.observed.DurationSeconds)*time.Second
}

// isLeaseValid is isLeaseValid(now).
func (c *elector) isLeaseValid(now time.Duration) bool { return c.validUntil() > now }

// setObserved is setObservedRecord: the record, seen now on this clock.
func (c *elector) setObserved(ctx sim.Ctx, spec LeaseSpec) {
	c.observed, c.observedRaw, c.observedTime = spec, raw(spec), ctx.Mono()
}

// raw is the record as json.Marshal writes it: metav1.Time in whole
// seconds (RFC 3339).
func raw(s LeaseSpec) LeaseSpec {
	s.AcquireTime = s.AcquireTime.Truncate(time.Second)
	s.RenewTime = s.RenewTime.Truncate(time.Second)
	return s
}

// send sends a call and waits for its answer, at most RenewDeadline.
func (c *elector) send(ctx sim.Ctx, st stage, r Request) {
	c.seq++
	r.Routine = c.routine()
	m := r.Msg()
	m.Seq = c.seq
	ctx.Send(c.api, m)
	c.try.stage = st
	c.call = pending{seq: c.seq, timer: ctx.After(RenewDeadlineOf(ctx.Scenario()), sim.Timer{Kind: timerRequest, Seq: c.seq})}
}

// routine says whether a call now repeats what was said before: a
// leader's renewal, a candidate's poll after its first failed try.
func (c *elector) routine() bool { return c.phase == phRenew || c.Tries > 0 }

// Background implements sim.Background: renewals and polls after the
// first (routine) are background for the window's pacing.
func (c *elector) Background(m *sim.Msg) bool {
	switch m.Op {
	case OpGet, OpCreate, OpUpdate:
		return RequestOf(m).Routine
	}
	return false
}

// abandon forgets the call in flight (its context was cancelled).
func (c *elector) abandon(ctx sim.Ctx) {
	if c.call.seq != 0 {
		ctx.Cancel(c.call.timer)
	}
	c.call, c.try.stage = pending{}, stNone
}

// tryAcquireOrRenew starts one try.
func (c *elector) tryAcquireOrRenew(ctx sim.Ctx) {
	sc := ctx.Scenario()
	now, wall := ctx.Mono(), ctx.Wall()
	c.try = try{now: now, spec: LeaseSpec{Holder: ctx.Name(), DurationSeconds: leaseSeconds(sc), AcquireTime: wall, RenewTime: wall}}
	if c.isLeader(ctx) && c.isLeaseValid(now) && c.cached {
		c.try.spec.AcquireTime, c.try.spec.Transitions = c.observed.AcquireTime, c.observed.Transitions
		spec := c.try.spec
		c.send(ctx, stFast, Request{Op: OpUpdate, Spec: &spec, RV: c.rv})
		return
	}
	c.send(ctx, stGet, Request{Op: OpGet})
}

func (c *elector) Receive(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	if handled, written := c.StorageReply(ctx, from, m); handled {
		if written {
			c.periodDone(ctx)
		}
		return
	}
	if from != c.api || c.call.seq == 0 || m.Seq != c.call.seq {
		return // an answer to an abandoned call
	}
	ctx.Cancel(c.call.timer)
	c.call = pending{}
	c.answered(ctx, ReplyOf(m))
}

// answered carries a try (or a release) on with the apiserver's answer.
func (c *elector) answered(ctx sim.Ctx, r Reply) {
	st := c.try.stage
	c.try.stage = stNone
	switch st {
	case stFast:
		if r.Op == OpOK {
			c.rv = r.RV
			c.setObserved(ctx, c.try.spec)
			c.tried(ctx, true)
			return
		}
		// "Failed to update lease optimistically, falling back to slow path"
		c.send(ctx, stGet, Request{Op: OpGet})
	case stGet:
		c.got(ctx, r)
	case stCreate, stUpdate:
		ok := r.Op == OpOK || r.Op == OpCreated
		if ok {
			c.cached, c.rv = true, r.RV
			c.setObserved(ctx, c.try.spec)
		}
		c.tried(ctx, ok)
	case stRelGet, stRelPut:
		c.releaseAnswered(ctx, st, r)
	}
}

// got is the slow path after the Get.
func (c *elector) got(ctx sim.Ctx, r Reply) {
	switch r.Op {
	case OpNotFound:
		spec := c.try.spec
		c.send(ctx, stCreate, Request{Op: OpCreate, Spec: &spec})
		return
	case OpOK:
	default:
		c.tried(ctx, false) // "Error retrieving lease lock"
		return
	}
	c.cached, c.rv = true, r.RV
	old := *r.Spec
	if raw(old) != c.observedRaw {
		c.setObserved(ctx, old)
		if ctx.Tracing() {
			left := (c.validUntil() - ctx.Mono()).Round(time.Millisecond)
			ctx.TraceSaid(traceObserve, OpOK.String(), fmt.Sprintf("the record changed (holder %s, transitions %d): observedTime is now, it is valid %v more on this clock",
				holderName(old.Holder), old.Transitions, left), sim.Say("note.kubernetes.observed", "holder", holderName(old.Holder), "transitions", fmt.Sprint(old.Transitions), "left", left.String()))
		}
	}
	if old.Holder != "" && c.isLeaseValid(c.try.now) && !c.isLeader(ctx) {
		if ctx.Tracing() && c.phase == phAcquire && c.Tries == 0 {
			left := (c.validUntil() - c.try.now).Round(time.Millisecond)
			ctx.TraceSaid(traceObserve, "", fmt.Sprintf("held by %s and not yet expired: %v left on this clock", old.Holder, left),
				sim.Say("note.kubernetes.held", "holder", old.Holder, "left", left.String()))
		}
		c.tried(ctx, false)
		return
	}
	if c.isLeader(ctx) {
		c.try.spec.AcquireTime, c.try.spec.Transitions = old.AcquireTime, old.Transitions
	} else {
		c.try.spec.Transitions = old.Transitions + 1
	}
	spec := c.try.spec
	c.send(ctx, stUpdate, Request{Op: OpUpdate, Spec: &spec, RV: c.rv})
}

// holderName is a holderIdentity for the trace: the empty one says so.
func holderName(h string) string {
	if h == "" {
		return "—"
	}
	return h
}

// tried ends a tryAcquireOrRenew: acquire and renew go on by its result.
func (c *elector) tried(ctx sim.Ctx, ok bool) {
	switch c.phase {
	case phAcquire:
		if ok {
			c.startLeading(ctx)
			return
		}
		var words sim.Words
		if !ctx.Quiet() {
			words = sim.Say("note.kubernetes.notAcquired")
		}
		if !c.Failed(ctx, "failed to acquire lease "+LeaseName, words) {
			c.phase = phIdle // the application gave up (tries)
			return
		}
		sc := ctx.Scenario()
		retry := RetryPeriodOf(sc)
		wait := retry + time.Duration(ctx.Rand().Float64()*JitterFactor*float64(retry)) // wait.Jitter
		c.arm(ctx, wait)
	case phRenew:
		ctx.Renewed(ok)
		if ok { // the poll succeeded: wait.Until's next round after RetryPeriod
			ctx.Cancel(c.dlTimer)
			c.dlTimer = 0
			c.arm(ctx, RetryPeriodOf(ctx.Scenario()))
			return
		}
		next := max(c.tick, ctx.Mono()) // the poll's ticker, not sliding
		c.tick = next + RetryPeriodOf(ctx.Scenario())
		c.arm(ctx, next-ctx.Mono())
	}
}

// arm sets the loop's one timer of the current generation.
func (c *elector) arm(ctx sim.Ctx, d time.Duration) {
	ctx.Cancel(c.tryTimer)
	c.tryTimer = ctx.After(max(d, 0), sim.Timer{Kind: timerTry, Seq: c.gen})
}

// startLeading: acquire succeeded; OnStartedLeading starts the work and
// renew's first poll runs now.
func (c *elector) startLeading(ctx sim.Ctx) {
	c.phase, c.periods = phRenew, 0
	if ctx.Tracing() {
		ctx.TraceSaid(traceLead, "", fmt.Sprintf("successfully acquired lease %s: leaseTransitions %d", LeaseName, c.observed.Transitions),
			sim.Say("note.kubernetes.acquired", "lease", LeaseName, "transitions", fmt.Sprint(c.observed.Transitions)))
	}
	c.Grant(ctx, int64(c.observed.Transitions), 0)
	c.poll(ctx)
}

// poll starts one PollUntilContextTimeout: a try now, its deadline
// RenewDeadline from now on this clock.
func (c *elector) poll(ctx sim.Ctx) {
	sc := ctx.Scenario()
	now := ctx.Mono()
	c.deadline, c.tick = now+RenewDeadlineOf(sc), now+RetryPeriodOf(sc)
	c.gen++
	ctx.Cancel(c.dlTimer)
	c.dlTimer = ctx.After(RenewDeadlineOf(sc), sim.Timer{Kind: timerDeadline, Seq: c.gen})
	c.tryAcquireOrRenew(ctx)
}

func (c *elector) Fire(ctx sim.Ctx, t sim.Timer) {
	switch c.Loop.Fire(ctx, t) {
	case sim.LoopWorkDone:
		c.Write(ctx, c.Token)
		return
	case sim.LoopBegin:
		c.begin(ctx)
		return
	}
	switch t.Kind {
	case timerTry:
		if t.Seq != c.gen || c.call.seq != 0 {
			return
		}
		switch c.phase {
		case phAcquire:
			c.tryAcquireOrRenew(ctx)
		case phRenew:
			if c.dlTimer == 0 { // wait.Until's next round: a new poll
				c.poll(ctx)
				return
			}
			c.tryAcquireOrRenew(ctx)
		}
	case timerDeadline:
		if t.Seq == c.gen && c.phase == phRenew && c.dlTimer != 0 {
			c.dlTimer = 0
			c.stopLeading(ctx, fmt.Sprintf("failed to renew lease %s: timed out waiting for the condition (no renewal within renewDeadline %v)", LeaseName, RenewDeadlineOf(ctx.Scenario())),
				sim.Say("note.kubernetes.stopped", "lease", LeaseName, "deadline", RenewDeadlineOf(ctx.Scenario()).String()))
		}
	case timerRequest:
		if t.Seq != c.call.seq || c.call.seq == 0 {
			return
		}
		c.call = pending{}
		if ctx.Tracing() {
			ctx.TraceSaid(traceTimeout, "", fmt.Sprintf("no answer in %v: the request's timeout", RenewDeadlineOf(ctx.Scenario())),
				sim.Say("note.kubernetes.noAnswer", "timeout", RenewDeadlineOf(ctx.Scenario()).String()))
		}
		c.answered(ctx, Reply{Op: OpFailed, Why: "context deadline exceeded"})
	}
}

// stopLeading is renew returning: the call in flight abandoned, the
// worker told (OnStartedLeading's context cancelled); then release with
// ReleaseOnCancel.
func (c *elector) stopLeading(ctx sim.Ctx, why string, words sim.Words) {
	c.abandon(ctx)
	ctx.Cancel(c.tryTimer)
	c.gen++
	if ctx.Tracing() {
		ctx.TraceSaid(traceLead, "", why, words)
	}
	if c.State == sim.StateHolding && !c.Told() {
		var told sim.Words
		if !ctx.Quiet() {
			told = sim.Say("note.kubernetes.toldStopped")
		}
		c.Tell(ctx, "stopped leading: OnStartedLeading's context is cancelled", told)
	}
	c.release(ctx)
}

// release is ReleaseOnCancel's release(), or nothing without it; then
// Run returns.
func (c *elector) release(ctx sim.Ctx) {
	if !ReleaseOnCancel.Of(ctx.Scenario()) || c.released {
		c.runReturned(ctx)
		return
	}
	c.released = true
	c.phase = phRelease
	c.send(ctx, stRelGet, Request{Op: OpGet})
}

// releaseAnswered carries release on.
func (c *elector) releaseAnswered(ctx sim.Ctx, st stage, r Reply) {
	if st == stRelGet {
		if r.Op != OpOK || !c.isLeader(ctx) {
			c.runReturned(ctx) // "error retrieving resource lock", or not ours to release
			return
		}
		c.rv = r.RV
		wall := ctx.Wall()
		spec := LeaseSpec{DurationSeconds: ReleasedLeaseSeconds, AcquireTime: wall, RenewTime: wall, Transitions: r.Spec.Transitions}
		c.try.spec = spec
		c.send(ctx, stRelPut, Request{Op: OpUpdate, Spec: &spec, RV: c.rv})
		return
	}
	switch r.Op {
	case OpOK:
		c.setObserved(ctx, c.try.spec)
		if ctx.Tracing() {
			ctx.TraceSaid(traceRelease, OpUpdate.String(), "released: holderIdentity empty, leaseDurationSeconds 1", sim.Say("note.kubernetes.released"))
		}
	case OpConflict: // tryRelease again
		c.send(ctx, stRelGet, Request{Op: OpGet})
		return
	}
	c.runReturned(ctx)
}

// runReturned is Run's end (OnStoppedLeading): the process exits once the
// worker's period in progress is done.
func (c *elector) runReturned(ctx sim.Ctx) {
	c.phase = phDone
	if c.workOver || c.State != sim.StateHolding {
		c.exit(ctx)
	}
}

// periodDone is the leader's write answered: the next period, or the end
// of leading when the application cancels its context (leadPeriods) or
// the elector has stopped leading.
func (c *elector) periodDone(ctx sim.Ctx) {
	if c.phase == phRenew && !c.Told() {
		c.periods++
		if n := LeadPeriods.Of(ctx.Scenario()); n == 0 || c.periods < n {
			c.Again(ctx)
			return
		}
		if ctx.Tracing() {
			ctx.TraceSaid(traceLead, "", fmt.Sprintf("%d periods led: the application cancels Run's context", c.periods),
				sim.Say("note.kubernetes.cancel", "n", fmt.Sprint(c.periods)))
		}
		c.Release(ctx)
		c.workOver = true
		c.abandon(ctx)
		ctx.Cancel(c.tryTimer)
		ctx.Cancel(c.dlTimer)
		c.gen++
		c.release(ctx)
		return
	}
	if c.State == sim.StateHolding {
		c.Release(ctx)
	}
	c.workOver = true
	if c.phase == phDone {
		c.exit(ctx)
	}
}

// exit ends the round: the process exits after OnStoppedLeading and is
// started again after think.
func (c *elector) exit(ctx sim.Ctx) {
	if c.phase == phIdle {
		return
	}
	c.phase = phIdle
	c.Rest(ctx)
}
