package redlock

import (
	"fmt"
	"strconv"
	"time"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
)

// Phase is where a Redlock client is, as Attempt.Phase shows it.
type Phase uint8

// A Redlock client's phases.
const (
	PhaseNone Phase = iota // no attempt yet
	PhaseAcquiring
	PhaseUnlocking
	PhaseRetrying
	PhaseHolding
	PhaseExtending
	PhaseWriting
	PhaseReleased
	PhaseLost
	PhaseGaveUp
)

var phaseNames = [...]string{"", "acquiring", "unlocking", "retrying", "holding", "extending", "writing", "released", "lost", "gave up"}

// String is the phase's name, the word the window translates
// (term.holding).
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "Phase(" + strconv.Itoa(int(p)) + ")"
}

// redlockClient is a redsync Mutex in a loop of Lock, work, write, Unlock.
//
// What the holder checks, and when: go-redsync's Mutex (mutex.go in
// github.com/go-redsync/redsync v4, read at v4.17.0) keeps the validity
// deadline in a field, until, that lockContext sets after a quorum
// (now + expiry − elapsed − expiry·driftFactor) and ExtendContext sets
// again; Until() only returns it. Nothing in the Mutex acts on it: no
// timer, no callback, Unlock and Extend never look at it (Unlock runs the
// release script on every pool and counts the yeses; Extend runs touch
// and computes a new until), and Lock's caller is not told when it passes.
// redsync's README example locks, works ("Do your work that requires the
// lock.") and unlocks without calling Until. So by
// default the client works to the end and writes whatever the deadline
// says, as redsync's users do; it learns nothing until Unlock or Extend
// fails. With checkValidity it compares Until() with its own clock just
// before it sends the write and skips the write when the validity is
// gone. Either way a pause after that last look, or a write held back on
// the network, lands after another client was granted the lock: a stale
// write that Redlock cannot stop, having no fencing token.
type redlockClient struct {
	sim.Loop
	masters  []sim.NodeID
	value    string
	phase    Phase
	why      string        // why the last try failed
	batch    int64         // numbers each batch of requests; answers carry it
	start    time.Duration // monotonic reading before the batch's first request
	next     int           // sequential: the master being asked
	waiting  int           // answers still due in the batch
	yes      int           // masters that said yes in the batch
	deadline sim.TimerID
	ctxDone  sim.TimerID // redsync's own deadline, when go-redis waits longer (func Wait)
	pending  []bool      // masters whose answer to the batch is still due
	retry    sim.TimerID
	until    time.Duration // validity deadline, on the monotonic clock
	validity sim.TimerID
	holdGen  int64 // numbers validity timers, so a stale one is ignored
	watchdog sim.TimerID
	att      Attempt
}

func (c *redlockClient) Clone() sim.Process {
	cp := *c
	cp.masters = append([]sim.NodeID(nil), c.masters...)
	cp.pending = append([]bool(nil), c.pending...)
	cp.att.Votes = append([]Vote(nil), c.att.Votes...)
	return &cp
}

func (c *redlockClient) Start(ctx sim.Ctx) {
	c.masters = c.masters[:0]
	for _, name := range ctx.Scenario().ServerNames() {
		c.masters = append(c.masters, ctx.Lookup(name))
	}
	c.begin(ctx)
}

func (c *redlockClient) Crash(ctx sim.Ctx) { *c = redlockClient{} }

func (c *redlockClient) Restart(ctx sim.Ctx, persist bool) { c.Start(ctx) }

func (c *redlockClient) begin(ctx sim.Ctx) {
	if !c.Begin(ctx) {
		return
	}
	c.value = fmt.Sprintf("%016x", ctx.Rand().Uint64())
	c.acquire(ctx)
}

func (c *redlockClient) ttl(ctx sim.Ctx) time.Duration { return ctx.Scenario().TTL.D() }

// wait is how long a batch (or, sequential, one master) waits for answers:
// redsync's deadline as go-redis applies it (func Wait). The watchdog's
// extension runs under the same deadline (ExtendContext with the try's ctx).
func (c *redlockClient) wait(ctx sim.Ctx) time.Duration {
	sc := ctx.Scenario()
	return WaitWith(c.ttl(ctx), ContextTimeout.Of(sc), ReadTimeout.Of(sc).D())
}

// newBatch starts a batch of requests, one per master.
func (c *redlockClient) newBatch(ctx sim.Ctx, phase Phase) {
	c.cancelDeadlines(ctx)
	c.batch++
	c.pending = c.pending[:0]
	for range c.masters {
		c.pending = append(c.pending, true)
	}
	c.phase = phase
	c.start = ctx.Mono()
	c.waiting = len(c.masters)
	c.yes = 0
}

func (c *redlockClient) send(ctx sim.Ctx, i int, m sim.Msg) {
	m.Seq = requestID(c.batch, i)
	ctx.Send(c.masters[i], m)
}

// sendAll sends m to every master under one deadline.
func (c *redlockClient) sendAll(ctx sim.Ctx, m sim.Msg) {
	for i := range c.masters {
		c.send(ctx, i, m)
	}
	c.deadline = ctx.After(c.wait(ctx), sim.Timer{Kind: timerRedlockDeadline, Seq: c.batch})
	c.armCtxDone(ctx, c.batch)
}

// armCtxDone sets a timer at redsync's own deadline when go-redis reads
// past it (contextTimeout off): a dead master is given up on there (see
// refused), a silent one is not.
func (c *redlockClient) armCtxDone(ctx sim.Ctx, seq int64) {
	if d := Timeout(c.ttl(ctx)); d < c.wait(ctx) {
		c.ctxDone = ctx.After(d, sim.Timer{Kind: timerRedlockCtxDone, Seq: seq})
	}
}

func (c *redlockClient) cancelDeadlines(ctx sim.Ctx) {
	ctx.Cancel(c.deadline)
	ctx.Cancel(c.ctxDone)
	c.deadline, c.ctxDone = 0, 0
}

// refused reports whether master i is down, so that its port refuses
// connections: go-redis retries a refused dial (DialerRetries 5, 100 ms
// apart) and, between attempts of the command, sleeps with redsync's ctx
// (internal.Sleep), so a dead master ends its part of the batch at
// redsync's deadline whatever contextTimeout says (measured in
// TestRedlockPlans, "2 killed"). The client does not see the crash; its
// TCP stack does, which is why this asks the run.
func (c *redlockClient) refused(ctx sim.Ctx, i int) bool {
	return ctx.Sim().Nodes[c.masters[i]].Crashed
}

// acquire starts one try: SET NX PX on every master.
func (c *redlockClient) acquire(ctx sim.Ctx) {
	sc := ctx.Scenario()
	c.newBatch(ctx, PhaseAcquiring)
	// The votes reuse the last try's slice: views and clones copy it.
	votes := c.att.Votes[:0]
	for range c.masters {
		votes = append(votes, VotePending)
	}
	c.att = Attempt{Number: c.Tries + 1, Started: ctx.Now(), Votes: votes,
		TTL: sc.TTL.D(), Drift: Drift(sc.TTL.D(), DriftFactor.Of(sc)), Wait: c.wait(ctx)}
	if Sequential.Of(sc) {
		c.next = 0
		c.askNext(ctx)
		return
	}
	c.sendAll(ctx, redis.Command{Op: redis.OpSet, Key: redis.LockKey, Value: c.value, PX: sc.TTL.D()}.Msg())
}

// askNext sends the SET to the next master in turn (sequential).
func (c *redlockClient) askNext(ctx sim.Ctx) {
	c.send(ctx, c.next, redis.Command{Op: redis.OpSet, Key: redis.LockKey, Value: c.value, PX: c.ttl(ctx)}.Msg())
	seq := requestID(c.batch, c.next)
	c.deadline = ctx.After(c.wait(ctx), sim.Timer{Kind: timerRedlockNodeTimeout, Seq: seq})
	c.armCtxDone(ctx, seq)
}

// silent is the vote of a master that did not answer in time. The client
// only sees a timeout; the view tells a partition apart (⚡) from a slow or
// dead master (⏱), which is why it asks the run, not the protocol.
func (c *redlockClient) silent(ctx sim.Ctx, i int) Vote {
	if ctx.Sim().Cut(ctx.ID(), c.masters[i]) {
		return VotePartitioned
	}
	return VoteTimeout
}

func (c *redlockClient) Receive(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	if handled, written := c.StorageReply(ctx, from, m); handled {
		if written {
			c.release(ctx)
		}
		return
	}
	batch, i := attemptOf(m)
	if batch != c.batch || i >= len(c.masters) || c.masters[i] != from || !c.pending[i] {
		return // an answer to a batch already decided
	}
	c.pending[i] = false
	switch c.phase {
	case PhaseAcquiring:
		if c.att.Votes[i] != VotePending {
			return
		}
		if m.Op == redis.OpOK {
			c.att.Votes[i] = VoteYes
			c.yes++
		} else {
			c.att.Votes[i] = VoteNo
		}
		if Sequential.Of(ctx.Scenario()) {
			c.advance(ctx)
			return
		}
	case PhaseUnlocking, PhaseExtending:
		if r := redis.ReplyOf(m); r.Op == redis.OpInt && r.Int == 1 {
			c.yes++
		}
	default:
		return
	}
	c.answered(ctx)
}

// answered counts one more master done with the batch and decides the
// batch when it was the last.
func (c *redlockClient) answered(ctx sim.Ctx) {
	c.waiting--
	if c.waiting == 0 {
		c.cancelDeadlines(ctx)
		c.batchDone(ctx)
	}
}

// giveUpOnRefused ends the part of every dead master in the batch at
// redsync's deadline (refused); silent ones keep go-redis reading.
func (c *redlockClient) giveUpOnRefused(ctx sim.Ctx, seq int64) {
	if Sequential.Of(ctx.Scenario()) {
		if c.phase != PhaseAcquiring || seq != requestID(c.batch, c.next) || !c.refused(ctx, c.next) {
			return
		}
		c.pending[c.next] = false
		c.att.Votes[c.next] = VoteTimeout
		c.advance(ctx)
		return
	}
	if seq != c.batch {
		return
	}
	for i := range c.pending {
		if !c.pending[i] || !c.refused(ctx, i) {
			continue
		}
		c.pending[i] = false
		if c.phase == PhaseAcquiring {
			c.att.Votes[i] = VoteTimeout
		}
		c.answered(ctx)
		if c.batch != seq {
			return // that was the last one: the batch is decided
		}
	}
}

// advance moves a sequential try on to the next master, or decides it.
func (c *redlockClient) advance(ctx sim.Ctx) {
	c.cancelDeadlines(ctx)
	c.waiting--
	c.next++
	if c.next < len(c.masters) {
		c.askNext(ctx)
		return
	}
	c.decide(ctx)
}

func (c *redlockClient) batchDone(ctx sim.Ctx) {
	switch c.phase {
	case PhaseAcquiring:
		c.decide(ctx)
	case PhaseUnlocking:
		c.unlocked(ctx)
	case PhaseExtending:
		c.extended(ctx)
	}
}

// decide ends a try: the vote count and the validity arithmetic.
func (c *redlockClient) decide(ctx sim.Ctx) {
	sc := ctx.Scenario()
	ttl := sc.TTL.D()
	quorum := Quorum(len(c.masters))
	elapsed := ctx.Mono() - c.start
	validity := Validity(ttl, elapsed, DriftFactor.Of(sc))
	c.att.Elapsed, c.att.Validity, c.att.Done = elapsed, validity, true
	c.att.Success = c.yes >= quorum && validity > 0
	if c.att.Success {
		if ctx.Tracing() {
			sum, words := c.tally(ttl, elapsed, validity, quorum, "note.redlock.granted")
			ctx.TraceSaid(traceRedlock, redis.OpSet.String(), "granted: "+sum, words)
		}
		c.hold(ctx, validity)
		return
	}
	// A sweep's run (Quiet) leaves the reason unwritten: only the window,
	// the trace and a give-up note read it, and tries 0 never gives up.
	if !ctx.Quiet() {
		if c.yes < quorum {
			c.why = fmt.Sprintf("only %d of %d masters said yes, quorum is %d", c.yes, len(c.masters), quorum)
			c.att.NoteWords = sim.Say("note.redlock.noQuorum", "yes", strconv.Itoa(c.yes), "n", strconv.Itoa(len(c.masters)), "quorum", strconv.Itoa(quorum))
		} else {
			c.why = fmt.Sprintf("validity %s is not positive: the votes took %s", redlockMs(validity), redlockMs(elapsed))
			c.att.NoteWords = sim.Say("note.redlock.noValidity", "validity", redlockMs(validity), "elapsed", redlockMs(elapsed))
		}
		c.att.Note = c.why
	}
	if ctx.Tracing() {
		sum, words := c.tally(ttl, elapsed, validity, quorum, "note.redlock.failed")
		ctx.TraceSaid(traceRedlock, redis.OpSet.String(), "failed: "+sum, words)
	}
	c.newBatch(ctx, PhaseUnlocking)
	c.sendAll(ctx, redis.Command{Op: redis.OpCAD, Key: redis.LockKey, Value: c.value}.Msg())
}

// tally is a try's vote count and validity arithmetic, as the trace says it.
func (c *redlockClient) tally(ttl, elapsed, validity time.Duration, quorum int, key string) (string, sim.Words) {
	sum := fmt.Sprintf("%d/%d votes, quorum %d; validity %s − %s − %s = %s",
		c.yes, len(c.masters), quorum, redlockMs(ttl), redlockMs(elapsed), redlockMs(c.att.Drift), redlockMs(validity))
	return sum, sim.Say(key, "yes", strconv.Itoa(c.yes), "n", strconv.Itoa(len(c.masters)), "quorum", strconv.Itoa(quorum),
		"ttl", redlockMs(ttl), "elapsed", redlockMs(elapsed), "drift", redlockMs(c.att.Drift), "validity", redlockMs(validity))
}

// hold starts believing: the validity timer, the work, the watchdog.
func (c *redlockClient) hold(ctx sim.Ctx, validity time.Duration) {
	c.phase = PhaseHolding
	c.Grant(ctx, 0, validity)
	c.setValidity(ctx, validity)
	if Watchdog.Of(ctx.Scenario()) {
		c.watchdog = ctx.After(c.ttl(ctx)/3, sim.Timer{Kind: timerRedlockWatchdog})
	}
}

func (c *redlockClient) setValidity(ctx sim.Ctx, validity time.Duration) {
	ctx.Cancel(c.validity)
	c.holdGen++
	c.until = ctx.Mono() + validity
	c.validity = ctx.After(validity, sim.Timer{Kind: timerRedlockValidity, Seq: c.holdGen})
}

// unlocked follows the unlock of a failed try: retry after a random delay,
// or give up after `tries`.
func (c *redlockClient) unlocked(ctx sim.Ctx) {
	if !c.Failed(ctx, c.why, c.att.NoteWords) {
		c.phase = PhaseGaveUp
		return
	}
	c.phase = PhaseRetrying
	c.retry = ctx.After(redlockRetryDelay(ctx), sim.Timer{Kind: sim.TimerRetry})
}

// extended decides a watchdog extension the way redsync's Extend does:
// a majority, and a positive validity measured over the extension itself.
func (c *redlockClient) extended(ctx sim.Ctx) {
	sc := ctx.Scenario()
	ttl := sc.TTL.D()
	quorum := Quorum(len(c.masters))
	elapsed := ctx.Mono() - c.start
	validity := Validity(ttl, elapsed, DriftFactor.Of(sc))
	c.phase = PhaseHolding
	if c.yes >= quorum && validity > 0 {
		c.att.Renewals++
		c.att.Validity = validity
		c.setValidity(ctx, validity)
		c.watchdog = ctx.After(ttl/3, sim.Timer{Kind: timerRedlockWatchdog})
		ctx.TraceSaid(traceWatchdog, redis.OpPExpire.String(), fmt.Sprintf("extended on %d/%d masters; validity %s", c.yes, len(c.masters), redlockMs(validity)),
			sim.Say("note.redlock.extended", "yes", strconv.Itoa(c.yes), "n", strconv.Itoa(len(c.masters)), "validity", redlockMs(validity)))
		return
	}
	why := fmt.Sprintf("extension reached only %d of %d masters, quorum is %d", c.yes, len(c.masters), quorum)
	words := sim.Say("note.redlock.extendNoQuorum", "yes", strconv.Itoa(c.yes), "n", strconv.Itoa(len(c.masters)), "quorum", strconv.Itoa(quorum))
	if c.yes >= quorum {
		why = fmt.Sprintf("extension took %s: validity %s is not positive", redlockMs(elapsed), redlockMs(validity))
		words = sim.Say("note.redlock.extendNoValidity", "elapsed", redlockMs(elapsed), "validity", redlockMs(validity))
	}
	c.lose(ctx, why, words)
}

// lose ends the belief without a release: the client knows it lost.
func (c *redlockClient) lose(ctx sim.Ctx, why string, words sim.Words) {
	ctx.Cancel(c.validity)
	ctx.Cancel(c.watchdog)
	c.cancelDeadlines(ctx)
	c.validity, c.watchdog = 0, 0
	c.phase = PhaseLost
	c.att.Note, c.att.NoteWords = why, words
	c.Lost(ctx, why, words)
}

func (c *redlockClient) Fire(ctx sim.Ctx, t sim.Timer) {
	switch c.Loop.Fire(ctx, t) {
	case sim.LoopWorkDone:
		c.workDone(ctx)
		return
	case sim.LoopBegin:
		c.begin(ctx)
		return
	}
	switch t.Kind {
	case timerRedlockDeadline:
		if t.Seq != c.batch || c.deadline == 0 {
			return
		}
		c.deadline = 0
		if c.phase == PhaseAcquiring {
			for i, v := range c.att.Votes {
				if v == VotePending {
					c.att.Votes[i] = c.silent(ctx, i)
				}
			}
		}
		c.batchDone(ctx)
	case timerRedlockCtxDone:
		c.ctxDone = 0
		c.giveUpOnRefused(ctx, t.Seq)
	case timerRedlockNodeTimeout:
		if c.phase != PhaseAcquiring || t.Seq != requestID(c.batch, c.next) {
			return
		}
		c.deadline = 0
		c.att.Votes[c.next] = c.silent(ctx, c.next)
		c.advance(ctx)
	case sim.TimerRetry:
		c.retry = 0
		if c.phase == PhaseRetrying && c.State == sim.StateWaiting {
			c.acquire(ctx)
		}
	case timerRedlockValidity:
		if t.Seq != c.holdGen || c.State != sim.StateHolding {
			return
		}
		// The validity ran out on the client's clock. redsync's Mutex
		// does nothing about it (Until() is a getter): the note is for the
		// reader, the client goes on.
		c.validity = 0
		ctx.TraceSaid(traceRedlock, "", fmt.Sprintf("validity ran out on its own clock, %s after the grant; the client does not look", redlockMs(c.att.Validity)),
			sim.Say("note.redlock.ranOutUnseen", "validity", redlockMs(c.att.Validity)))
	case timerRedlockWatchdog:
		c.watchdog = 0
		if c.State != sim.StateHolding || c.phase != PhaseHolding {
			return
		}
		c.newBatch(ctx, PhaseExtending)
		c.sendAll(ctx, redis.Command{Op: redis.OpPExpire, Key: redis.LockKey, Value: c.value, PX: c.ttl(ctx)}.Msg())
	}
}

// workDone sends the write; with checkValidity it first compares Until()
// with its own clock and skips the write when the validity is gone (see
// the type's comment).
func (c *redlockClient) workDone(ctx sim.Ctx) {
	if CheckValidity.Of(ctx.Scenario()) && ctx.Mono() >= c.until {
		c.lose(ctx, "its work ended after the validity ran out on its own clock: it does not write", sim.Say("note.redlock.workLate"))
		return
	}
	c.phase = PhaseWriting
	c.Write(ctx, 0)
}

// release ends the belief voluntarily and unlocks every master (redsync's
// Unlock); the answers do not matter any more.
func (c *redlockClient) release(ctx sim.Ctx) {
	c.Release(ctx)
	ctx.Cancel(c.validity)
	ctx.Cancel(c.watchdog)
	c.validity, c.watchdog = 0, 0
	c.newBatch(ctx, PhaseReleased)
	for i := range c.masters {
		c.send(ctx, i, redis.Command{Op: redis.OpCAD, Key: redis.LockKey, Value: c.value}.Msg())
	}
	c.Rest(ctx)
}

// detail is the client's one-line note in the cluster view.
func (c *redlockClient) detail(a Attempt) (string, sim.Words) {
	yes := 0
	for _, v := range a.Votes {
		if v == VoteYes {
			yes++
		}
	}
	switch a.Phase {
	case PhaseNone:
		return "", sim.Words{}
	case PhaseHolding, PhaseExtending, PhaseWriting:
		return fmt.Sprintf("%s: validity left %s", a.Phase, redlockMs(a.Left)),
			sim.Say("detail.redlock.left", "left", redlockMs(a.Left)).Term("phase", a.Phase.String())
	case PhaseAcquiring:
		return fmt.Sprintf("try %d: %d/%d yes", a.Number, yes, len(a.Votes)),
			sim.Say("detail.redlock.votes", "try", strconv.Itoa(a.Number), "yes", strconv.Itoa(yes), "n", strconv.Itoa(len(a.Votes)))
	}
	return fmt.Sprintf("try %d: %s", a.Number, a.Phase), sim.Say("detail.redlock.phase", "try", strconv.Itoa(a.Number)).Term("phase", a.Phase.String())
}

// redlockMs writes a duration in milliseconds, as every figure shown is.
func redlockMs(d time.Duration) string {
	return strconv.FormatFloat(sim.Round3(sim.Ms(d)), 'f', -1, 64) + " ms"
}
