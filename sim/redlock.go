package sim

import (
	"fmt"
	"strconv"
	"time"
)

// Vote is one master's answer to a Redlock attempt.
type Vote string

// The votes a Redlock attempt can collect from one master.
const (
	VotePending     Vote = "…"
	VoteYes         Vote = "✓"
	VoteNo          Vote = "✗"
	VoteTimeout     Vote = "⏱"
	VotePartitioned Vote = "⚡"
)

// RedlockAttempt is one client's attempt across the N masters.
type RedlockAttempt struct {
	Client  string
	Number  int
	Started time.Duration // true time of the first send
	Votes   []Vote
	Elapsed time.Duration // on the client's clock; 0 while still collecting
	Drift   time.Duration
	TTL     time.Duration
	// Wait is how long a silent master holds the try (RedlockWait).
	Wait     time.Duration
	Validity time.Duration
	Done     bool
	Success  bool
	// Phase is where the client is now: acquiring, unlocking, retrying,
	// holding, extending, writing, released, lost, gave up.
	Phase string
	// Left is the validity still left on the client's own clock while it
	// holds the lock, so the widget can shrink the bar.
	Left time.Duration
	// Renewals counts watchdog extensions that reached a majority.
	Renewals int
	// Note says in words why the attempt failed or how the hold ended.
	Note string
	// NoteWords is Note as a translation key and its figures.
	NoteWords Words
}

// RedlockView is the Redlock vote tally and the masters' keys.
type RedlockView struct {
	Quorum   int
	Masters  []RedisServerView
	Attempts []RedlockAttempt // the current or last attempt of each client
	// Sequential is true when attempts ask the masters one after another
	// (the spec's pseudo-code) instead of all at once (redsync).
	Sequential bool
}

// Redlock over N independent Redis masters, as go-redsync/redsync v4 runs
// it (Mutex.lockContext, ExtendContext, UnlockContext) and as the Redlock
// spec (redis.io/docs/manual/patterns/distributed-locks) describes it:
//
//   - One random value per Lock call, reused by all its tries (redsync's
//     genValueFunc is called once, before the loop).
//   - A try: start = the client's monotonic clock; SET key value NX PX ttl on
//     every master, all at once under one deadline of ttl·timeoutFactor
//     (redsync), or, with `sequential`, one master after another, each with
//     that timeout (the spec's pseudo-code). A master votes when it answers
//     OK in time. go-redis honours that deadline only with `contextTimeout`
//     (Options.ContextTimeoutEnabled); without it a silent master holds the
//     try for go-redis's read timeout (RedlockWait).
//   - elapsed = now − start on the same clock; drift = ttl·driftFactor +
//     2 ms; validity = ttl − elapsed − drift. The try succeeds iff votes ≥
//     N/2+1 and validity > 0. redsync computes until = now + ttl − elapsed −
//     ttl·driftFactor and requires now.Before(until): the same test, but
//     without the spec's (and redlock-rb's) 2 ms term, which LockScope keeps.
//   - A failed try unlocks (compare-and-delete) on all N masters, waits for
//     their answers or the same deadline, then sleeps a random delay (redsync:
//     rand in [50 ms, 250 ms)) and tries again, `tries` times in all.
//   - The holder believes it holds the lock until its validity runs out on
//     its own monotonic clock or until it releases.

// Redlock figures of go-redsync/redsync v4 (redsync.go, NewMutex).
const (
	// RedlockMaxNodes bounds `nodes` in redlock mode.
	RedlockMaxNodes = 9
	// RedlockTries is redsync's default number of tries per Lock call.
	RedlockTries = 32
	// RedlockRetryDelay is the mean of redsync's default delay between
	// tries, rand in [50 ms, 250 ms).
	RedlockRetryDelay = 150 * time.Millisecond
	// RedlockTimeoutFactor is redsync's timeoutFactor: a try waits at most
	// ttl·0.05 for the masters' answers.
	RedlockTimeoutFactor = 0.05
	// RedlockDriftFloor is the spec's fixed 2 ms added to ttl·driftFactor
	// for the granularity of Redis's expiry (redlock-rb does the same).
	RedlockDriftFloor = 2 * time.Millisecond
)

// RedlockQuorum is the number of masters that must vote yes: N/2+1.
func RedlockQuorum(n int) int { return n/2 + 1 }

// RedlockDrift is the allowance for clock drift between the client and the
// masters that Redlock subtracts from the validity: ttl·driftFactor + 2 ms.
func RedlockDrift(ttl time.Duration, driftFactor float64) time.Duration {
	return time.Duration(int64(float64(ttl)*driftFactor)) + RedlockDriftFloor
}

// RedlockValidity is how long the client may consider the lock its own after
// a try that took elapsed on its clock: ttl − elapsed − drift.
func RedlockValidity(ttl, elapsed time.Duration, driftFactor float64) time.Duration {
	return ttl - elapsed - RedlockDrift(ttl, driftFactor)
}

// RedlockTimeout is redsync's per-try context deadline, ttl·timeoutFactor
// (mutex.go, lockContext: context.WithTimeout(ctx, expiry·timeoutFactor)).
func RedlockTimeout(ttl time.Duration) time.Duration {
	return time.Duration(int64(float64(ttl) * RedlockTimeoutFactor))
}

// go-redis v9 figures (redis/go-redis v9.23.0, options.go init: the
// defaults of Options; v9.21 and older had a 3 s ReadTimeout).
const (
	// GoRedisReadTimeout is Options.ReadTimeout's default: the socket read
	// deadline of every attempt of a command.
	GoRedisReadTimeout = 5 * time.Second
	// GoRedisMaxRetries is Options.MaxRetries' default: a command that
	// timed out on a read is tried again, at most this many more times.
	GoRedisMaxRetries = 3
)

// RedlockWait is how long a master that stays silent (paused, partitioned)
// holds a try, or holds each master's turn with `sequential`: the moment
// go-redis gives up on its answer.
//
// go-redis v9 (redis.go): _process reads the reply under
// cn.WithReader(c.context(ctx), c.cmdTimeout(cmd), ...), and c.context
// returns the caller's ctx only when Options.ContextTimeoutEnabled is set,
// context.Background() otherwise; internal/pool/conn.go's deadline takes
// the earlier of the ctx deadline and now+ReadTimeout. A read timeout is
// retried (shouldRetry with retryTimeout set, error.go) after
// internal.Sleep(ctx, backoff), which returns at once when the caller's
// ctx is done, and at most MaxRetries more times.
//
//   - contextTimeout on: the wait is redsync's deadline ttl·0.05 (later
//     attempts' reads are cut by it too), but at most (MaxRetries+1) read
//     timeouts.
//   - contextTimeout off (go-redis's default, and redsync's README example
//     builds its client with default Options): every attempt reads for the
//     full ReadTimeout, and a new attempt starts only while redsync's
//     deadline has not passed; with ttl ≤ 100 s one attempt, 5 s.
//
// The retry backoffs (10 ms doubling, at most 1 s) are left out.
func RedlockWait(ttl time.Duration, contextTimeout bool) time.Duration {
	deadline := RedlockTimeout(ttl)
	most := (GoRedisMaxRetries + 1) * GoRedisReadTimeout
	if contextTimeout {
		return min(deadline, most)
	}
	attempts := max(1, (deadline+GoRedisReadTimeout-1)/GoRedisReadTimeout)
	return min(attempts*GoRedisReadTimeout, most)
}

// redlockRetryDelay draws the wait before the next try: uniform in whole
// milliseconds over [retryDelay/3, 5·retryDelay/3), which for the default
// 150 ms is redsync's rand.Intn(250-50)+50 ms.
func redlockRetryDelay(ctx Ctx) time.Duration {
	d := ctx.Scenario().RetryDelay.D()
	if d <= 0 {
		return 0
	}
	lo, span := d/3, d*4/3
	if n := int64(span / time.Millisecond); n > 0 {
		return lo + time.Duration(ctx.Rand().Int64N(n))*time.Millisecond
	}
	return lo + time.Duration(ctx.Rand().Int64N(int64(span)))
}

func init() { RegisterMode(redlockMode{}) }

type redlockMode struct{}

func (redlockMode) Name() string { return "redlock" }

// redlockTraits: N independent masters the client counts itself, random
// values (no ordered token), a validity with every grant.
var redlockTraits = Traits{
	LeaseWord: "ttl", ServerWord: "masters", Token: NoToken, Validity: true, ClientQuorum: true,
	Fields: []string{"nodes", "driftFactor", "watchdog", "sequential", "contextTimeout", "checkValidity"},
	Refusals: map[string]error{
		"fencing":  ErrRedlockFencing,
		"replica":  FieldErr("replica", say("field.redlockReplica"), "Redlock masters are independent and have no replica; use redis mode for one"),
		"plainDel": FieldErr("plainDel", say("field.redlockPlainDel"), "only for redis; Redlock always releases with compare-and-delete"),
	},
}

func (redlockMode) Traits() Traits { return redlockTraits }

func (redlockMode) Defaults(sc *Scenario) {
	sc.Nodes = 5
	sc.Tries = RedlockTries
	sc.RetryDelay = Duration(RedlockRetryDelay)
}

// ErrRedlockFencing explains why `fencing` is refused in redlock mode: a
// field's problem like any other, in both languages.
var ErrRedlockFencing = FieldErr("fencing", say("field.redlockFencing"), "Redlock has no fencing token: its lock values are random, not ordered, "+
	"so the storage cannot tell a late write of an old holder from a new holder's (Kleppmann, \"How to do distributed locking\")")

func (redlockMode) Validate(sc *Scenario) error {
	switch {
	case sc.Nodes < 1 || sc.Nodes > RedlockMaxNodes:
		return FieldErr("nodes", say("field.redlockNodes", "n", strconv.Itoa(sc.Nodes), "max", strconv.Itoa(RedlockMaxNodes)),
			"%d, want 1 to %d independent masters", sc.Nodes, RedlockMaxNodes)
	}
	return nil
}

func (redlockMode) Servers(sc *Scenario) []string {
	out := make([]string, sc.Nodes)
	for i := range out {
		out[i] = "redis-" + strconv.Itoa(i+1)
	}
	return out
}

func (redlockMode) CanFailover(sc *Scenario, node string) error {
	return FieldErr("", say("field.redlockFailover"), "Redlock masters have no replica to promote; use crash and restart")
}

// Failover never happens (CanFailover refuses it); a master just crashes.
func (redlockMode) Failover(s *Sim, node NodeID) { s.CrashNode(node) }

func (redlockMode) NewServer(sc *Scenario, i int) Process {
	return &redlockMaster{&RedisServer{Role: "master", replica: None}}
}

func (redlockMode) NewClient(sc *Scenario, i int) Process { return &redlockClient{} }

func (redlockMode) View(s *Sim, snap *Snapshot) {
	servers := s.Servers()
	v := &RedlockView{Quorum: RedlockQuorum(len(servers)), Sequential: s.Scenario.Sequential}
	for _, id := range servers {
		m := s.Nodes[id].Proc.(*redlockMaster)
		snap.Nodes[id].Role = m.Role
		v.Masters = append(v.Masters, m.view(s, id))
	}
	for i := range s.Nodes {
		c, ok := s.Nodes[i].Proc.(*redlockClient)
		if !ok {
			continue
		}
		a := c.att
		a.Client = s.Nodes[i].Name
		a.Votes = append([]Vote(nil), c.att.Votes...)
		a.Phase = c.phase
		if c.State == StateHolding {
			a.Left = c.until - s.Nodes[i].Clock.Mono(s.now)
		}
		v.Attempts = append(v.Attempts, a)
		a.NoteWords = a.NoteWords.clone()
		snap.Nodes[i].Detail, snap.Nodes[i].DetailWords = c.detail(a)
	}
	snap.Design = v
}

// DesignName says the view is Redlock's.
func (*RedlockView) DesignName() string { return redlockMode{}.Name() }

// Redlock is the snapshot's Redlock's part; nil in another design's snapshot.
func (s *Snapshot) Redlock() *RedlockView {
	v, _ := DesignOf[*RedlockView](s)
	return v
}

// redlockMaster is one of the N independent masters: a RedisServer that
// never replicates, whatever its name.
type redlockMaster struct{ *RedisServer }

func (m *redlockMaster) Start(ctx Ctx) {
	m.RedisServer.Start(ctx)
	m.replica = None
}

func (m *redlockMaster) Restart(ctx Ctx, persist bool) {
	m.RedisServer.Restart(ctx, persist)
	m.replica = None
}

func (m *redlockMaster) Clone() Process {
	return &redlockMaster{m.RedisServer.Clone().(*RedisServer)}
}

// Phases of a Redlock client, as RedlockAttempt.Phase shows them.
const (
	redlockAcquiring = "acquiring"
	redlockUnlocking = "unlocking"
	redlockRetrying  = "retrying"
	redlockHolding   = "holding"
	redlockExtending = "extending"
	redlockWriting   = "writing"
	redlockReleased  = "released"
	redlockLost      = "lost"
	redlockGaveUp    = "gave up"
)

// Timer kinds of the Redlock client.
const (
	timerRedlockDeadline    = "deadline"    // a batch's answers are due (all at once)
	timerRedlockCtxDone     = "ctxdone"     // redsync's deadline passed; go-redis still reads (contextTimeout off)
	timerRedlockNodeTimeout = "nodetimeout" // sequential: one master's answer is due
	timerRedlockValidity    = "validity"    // the validity ran out on the client's clock
	timerRedlockWatchdog    = "watchdog"    // time to extend
)

// redlockSeqStride packs a batch number and a master index into one Msg.Seq.
const redlockSeqStride = 16

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
	Loop
	masters  []NodeID
	value    string
	phase    string
	why      string        // why the last try failed
	batch    int64         // numbers each batch of requests; answers carry it
	start    time.Duration // monotonic reading before the batch's first request
	next     int           // sequential: the master being asked
	waiting  int           // answers still due in the batch
	yes      int           // masters that said yes in the batch
	deadline TimerID
	ctxDone  TimerID // redsync's own deadline, when go-redis waits longer (RedlockWait)
	pending  []bool  // masters whose answer to the batch is still due
	retry    TimerID
	until    time.Duration // validity deadline, on the monotonic clock
	validity TimerID
	holdGen  int64 // numbers validity timers, so a stale one is ignored
	watchdog TimerID
	att      RedlockAttempt
}

func (c *redlockClient) Clone() Process {
	cp := *c
	cp.masters = append([]NodeID(nil), c.masters...)
	cp.pending = append([]bool(nil), c.pending...)
	cp.att.Votes = append([]Vote(nil), c.att.Votes...)
	return &cp
}

func (c *redlockClient) Start(ctx Ctx) {
	c.masters = c.masters[:0]
	for _, name := range ctx.Scenario().ServerNames() {
		c.masters = append(c.masters, ctx.Lookup(name))
	}
	c.begin(ctx)
}

func (c *redlockClient) Crash(ctx Ctx) { *c = redlockClient{} }

func (c *redlockClient) Restart(ctx Ctx, persist bool) { c.Start(ctx) }

func (c *redlockClient) begin(ctx Ctx) {
	if !c.Begin(ctx) {
		return
	}
	c.value = fmt.Sprintf("%016x", ctx.Rand().Uint64())
	c.acquire(ctx)
}

func (c *redlockClient) ttl(ctx Ctx) time.Duration { return ctx.Scenario().TTL.D() }

// wait is how long a batch (or, sequential, one master) waits for answers:
// redsync's deadline as go-redis applies it (RedlockWait). The watchdog's
// extension runs under the same deadline (ExtendContext with the try's ctx).
func (c *redlockClient) wait(ctx Ctx) time.Duration {
	return RedlockWait(c.ttl(ctx), ctx.Scenario().ContextTimeout)
}

// newBatch starts a batch of requests, one per master.
func (c *redlockClient) newBatch(ctx Ctx, phase string) {
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

func (c *redlockClient) send(ctx Ctx, i int, m Msg) {
	m.Key = LockKey
	m.Seq = c.batch*redlockSeqStride + int64(i)
	ctx.Send(c.masters[i], m)
}

// sendAll sends m to every master under one deadline.
func (c *redlockClient) sendAll(ctx Ctx, m Msg) {
	for i := range c.masters {
		c.send(ctx, i, m)
	}
	c.deadline = ctx.After(c.wait(ctx), Timer{Kind: timerRedlockDeadline, Seq: c.batch})
	c.armCtxDone(ctx, c.batch)
}

// armCtxDone sets a timer at redsync's own deadline when go-redis reads
// past it (contextTimeout off): a dead master is given up on there (see
// refused), a silent one is not.
func (c *redlockClient) armCtxDone(ctx Ctx, seq int64) {
	if d := RedlockTimeout(c.ttl(ctx)); d < c.wait(ctx) {
		c.ctxDone = ctx.After(d, Timer{Kind: timerRedlockCtxDone, Seq: seq})
	}
}

func (c *redlockClient) cancelDeadlines(ctx Ctx) {
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
func (c *redlockClient) refused(ctx Ctx, i int) bool {
	return ctx.Sim().Nodes[c.masters[i]].Crashed
}

// acquire starts one try: SET NX PX on every master.
func (c *redlockClient) acquire(ctx Ctx) {
	sc := ctx.Scenario()
	c.newBatch(ctx, redlockAcquiring)
	// The votes reuse the last try's slice: views and clones copy it.
	votes := c.att.Votes[:0]
	for range c.masters {
		votes = append(votes, VotePending)
	}
	c.att = RedlockAttempt{Number: c.Tries + 1, Started: ctx.Now(), Votes: votes,
		TTL: sc.TTL.D(), Drift: RedlockDrift(sc.TTL.D(), sc.DriftFactor), Wait: c.wait(ctx)}
	if sc.Sequential {
		c.next = 0
		c.askNext(ctx)
		return
	}
	c.sendAll(ctx, Msg{Op: OpSet, Value: c.value, TTL: sc.TTL.D()})
}

// askNext sends the SET to the next master in turn (sequential).
func (c *redlockClient) askNext(ctx Ctx) {
	c.send(ctx, c.next, Msg{Op: OpSet, Value: c.value, TTL: c.ttl(ctx)})
	seq := c.batch*redlockSeqStride + int64(c.next)
	c.deadline = ctx.After(c.wait(ctx), Timer{Kind: timerRedlockNodeTimeout, Seq: seq})
	c.armCtxDone(ctx, seq)
}

// silent is the vote of a master that did not answer in time. The client
// only sees a timeout; the view tells a partition apart (⚡) from a slow or
// dead master (⏱), which is why it asks the run, not the protocol.
func (c *redlockClient) silent(ctx Ctx, i int) Vote {
	if ctx.Sim().Cut(ctx.ID(), c.masters[i]) {
		return VotePartitioned
	}
	return VoteTimeout
}

func (c *redlockClient) Receive(ctx Ctx, from NodeID, m *Msg) {
	if handled, written := c.StorageReply(ctx, from, m); handled {
		if written {
			c.release(ctx)
		}
		return
	}
	batch, i := m.Seq/redlockSeqStride, int(m.Seq%redlockSeqStride)
	if batch != c.batch || i >= len(c.masters) || c.masters[i] != from || !c.pending[i] {
		return // an answer to a batch already decided
	}
	c.pending[i] = false
	switch c.phase {
	case redlockAcquiring:
		if c.att.Votes[i] != VotePending {
			return
		}
		if m.Op == OpOK {
			c.att.Votes[i] = VoteYes
			c.yes++
		} else {
			c.att.Votes[i] = VoteNo
		}
		if ctx.Scenario().Sequential {
			c.advance(ctx)
			return
		}
	case redlockUnlocking, redlockExtending:
		if m.Op == OpInt && m.N == 1 {
			c.yes++
		}
	default:
		return
	}
	c.answered(ctx)
}

// answered counts one more master done with the batch and decides the
// batch when it was the last.
func (c *redlockClient) answered(ctx Ctx) {
	c.waiting--
	if c.waiting == 0 {
		c.cancelDeadlines(ctx)
		c.batchDone(ctx)
	}
}

// giveUpOnRefused ends the part of every dead master in the batch at
// redsync's deadline (refused); silent ones keep go-redis reading.
func (c *redlockClient) giveUpOnRefused(ctx Ctx, seq int64) {
	if ctx.Scenario().Sequential {
		if c.phase != redlockAcquiring || seq != c.batch*redlockSeqStride+int64(c.next) || !c.refused(ctx, c.next) {
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
		if c.phase == redlockAcquiring {
			c.att.Votes[i] = VoteTimeout
		}
		c.answered(ctx)
		if c.batch != seq {
			return // that was the last one: the batch is decided
		}
	}
}

// advance moves a sequential try on to the next master, or decides it.
func (c *redlockClient) advance(ctx Ctx) {
	c.cancelDeadlines(ctx)
	c.waiting--
	c.next++
	if c.next < len(c.masters) {
		c.askNext(ctx)
		return
	}
	c.decide(ctx)
}

func (c *redlockClient) batchDone(ctx Ctx) {
	switch c.phase {
	case redlockAcquiring:
		c.decide(ctx)
	case redlockUnlocking:
		c.unlocked(ctx)
	case redlockExtending:
		c.extended(ctx)
	}
}

// decide ends a try: the vote count and the validity arithmetic.
func (c *redlockClient) decide(ctx Ctx) {
	sc := ctx.Scenario()
	ttl := sc.TTL.D()
	quorum := RedlockQuorum(len(c.masters))
	elapsed := ctx.Mono() - c.start
	validity := RedlockValidity(ttl, elapsed, sc.DriftFactor)
	c.att.Elapsed, c.att.Validity, c.att.Done = elapsed, validity, true
	c.att.Success = c.yes >= quorum && validity > 0
	if c.att.Success {
		if ctx.Tracing() {
			sum, words := c.tally(ttl, elapsed, validity, quorum, "note.redlock.granted")
			ctx.TraceSaid("redlock", OpSet, "granted: "+sum, words)
		}
		c.hold(ctx, validity)
		return
	}
	// A sweep's run (Quiet) leaves the reason unwritten: only the window,
	// the trace and a give-up note read it, and tries 0 never gives up.
	if !ctx.Quiet() {
		if c.yes < quorum {
			c.why = fmt.Sprintf("only %d of %d masters said yes, quorum is %d", c.yes, len(c.masters), quorum)
			c.att.NoteWords = say("note.redlock.noQuorum", "yes", strconv.Itoa(c.yes), "n", strconv.Itoa(len(c.masters)), "quorum", strconv.Itoa(quorum))
		} else {
			c.why = fmt.Sprintf("validity %s is not positive: the votes took %s", redlockMs(validity), redlockMs(elapsed))
			c.att.NoteWords = say("note.redlock.noValidity", "validity", redlockMs(validity), "elapsed", redlockMs(elapsed))
		}
		c.att.Note = c.why
	}
	if ctx.Tracing() {
		sum, words := c.tally(ttl, elapsed, validity, quorum, "note.redlock.failed")
		ctx.TraceSaid("redlock", OpSet, "failed: "+sum, words)
	}
	c.newBatch(ctx, redlockUnlocking)
	c.sendAll(ctx, Msg{Op: OpCAD, Value: c.value})
}

// tally is a try's vote count and validity arithmetic, as the trace says it.
func (c *redlockClient) tally(ttl, elapsed, validity time.Duration, quorum int, key string) (string, Words) {
	sum := fmt.Sprintf("%d/%d votes, quorum %d; validity %s − %s − %s = %s",
		c.yes, len(c.masters), quorum, redlockMs(ttl), redlockMs(elapsed), redlockMs(c.att.Drift), redlockMs(validity))
	return sum, say(key, "yes", strconv.Itoa(c.yes), "n", strconv.Itoa(len(c.masters)), "quorum", strconv.Itoa(quorum),
		"ttl", redlockMs(ttl), "elapsed", redlockMs(elapsed), "drift", redlockMs(c.att.Drift), "validity", redlockMs(validity))
}

// hold starts believing: the validity timer, the work, the watchdog.
func (c *redlockClient) hold(ctx Ctx, validity time.Duration) {
	c.phase = redlockHolding
	c.Grant(ctx, 0, validity)
	c.setValidity(ctx, validity)
	if ctx.Scenario().Watchdog {
		c.watchdog = ctx.After(c.ttl(ctx)/3, Timer{Kind: timerRedlockWatchdog})
	}
}

func (c *redlockClient) setValidity(ctx Ctx, validity time.Duration) {
	ctx.Cancel(c.validity)
	c.holdGen++
	c.until = ctx.Mono() + validity
	c.validity = ctx.After(validity, Timer{Kind: timerRedlockValidity, Seq: c.holdGen})
}

// unlocked follows the unlock of a failed try: retry after a random delay,
// or give up after `tries`.
func (c *redlockClient) unlocked(ctx Ctx) {
	if !c.Failed(ctx, c.why, c.att.NoteWords) {
		c.phase = redlockGaveUp
		return
	}
	c.phase = redlockRetrying
	c.retry = ctx.After(redlockRetryDelay(ctx), Timer{Kind: timerRetry})
}

// extended decides a watchdog extension the way redsync's Extend does:
// a majority, and a positive validity measured over the extension itself.
func (c *redlockClient) extended(ctx Ctx) {
	sc := ctx.Scenario()
	ttl := sc.TTL.D()
	quorum := RedlockQuorum(len(c.masters))
	elapsed := ctx.Mono() - c.start
	validity := RedlockValidity(ttl, elapsed, sc.DriftFactor)
	c.phase = redlockHolding
	if c.yes >= quorum && validity > 0 {
		c.att.Renewals++
		c.att.Validity = validity
		c.setValidity(ctx, validity)
		c.watchdog = ctx.After(ttl/3, Timer{Kind: timerRedlockWatchdog})
		ctx.TraceSaid("watchdog", OpPExpire, fmt.Sprintf("extended on %d/%d masters; validity %s", c.yes, len(c.masters), redlockMs(validity)),
			say("note.redlock.extended", "yes", strconv.Itoa(c.yes), "n", strconv.Itoa(len(c.masters)), "validity", redlockMs(validity)))
		return
	}
	why := fmt.Sprintf("extension reached only %d of %d masters, quorum is %d", c.yes, len(c.masters), quorum)
	words := say("note.redlock.extendNoQuorum", "yes", strconv.Itoa(c.yes), "n", strconv.Itoa(len(c.masters)), "quorum", strconv.Itoa(quorum))
	if c.yes >= quorum {
		why = fmt.Sprintf("extension took %s: validity %s is not positive", redlockMs(elapsed), redlockMs(validity))
		words = say("note.redlock.extendNoValidity", "elapsed", redlockMs(elapsed), "validity", redlockMs(validity))
	}
	c.lose(ctx, why, words)
}

// lose ends the belief without a release: the client knows it lost.
func (c *redlockClient) lose(ctx Ctx, why string, words Words) {
	ctx.Cancel(c.validity)
	ctx.Cancel(c.watchdog)
	c.cancelDeadlines(ctx)
	c.validity, c.watchdog = 0, 0
	c.phase = redlockLost
	c.att.Note, c.att.NoteWords = why, words
	c.Lost(ctx, why, words)
}

func (c *redlockClient) Fire(ctx Ctx, t Timer) {
	switch c.Loop.Fire(ctx, t) {
	case "work":
		c.workDone(ctx)
		return
	case "begin":
		c.begin(ctx)
		return
	}
	switch t.Kind {
	case timerRedlockDeadline:
		if t.Seq != c.batch || c.deadline == 0 {
			return
		}
		c.deadline = 0
		if c.phase == redlockAcquiring {
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
		if c.phase != redlockAcquiring || t.Seq != c.batch*redlockSeqStride+int64(c.next) {
			return
		}
		c.deadline = 0
		c.att.Votes[c.next] = c.silent(ctx, c.next)
		c.advance(ctx)
	case timerRetry:
		c.retry = 0
		if c.phase == redlockRetrying && c.State == StateWaiting {
			c.acquire(ctx)
		}
	case timerRedlockValidity:
		if t.Seq != c.holdGen || c.State != StateHolding {
			return
		}
		// The validity ran out on the client's clock. redsync's Mutex
		// does nothing about it (Until() is a getter): the note is for the
		// reader, the client goes on.
		c.validity = 0
		ctx.TraceSaid("redlock", "", fmt.Sprintf("validity ran out on its own clock, %s after the grant; the client does not look", redlockMs(c.att.Validity)),
			say("note.redlock.ranOutUnseen", "validity", redlockMs(c.att.Validity)))
	case timerRedlockWatchdog:
		c.watchdog = 0
		if c.State != StateHolding || c.phase != redlockHolding {
			return
		}
		c.newBatch(ctx, redlockExtending)
		c.sendAll(ctx, Msg{Op: OpPExpire, Value: c.value, TTL: c.ttl(ctx)})
	}
}

// workDone sends the write; with checkValidity it first compares Until()
// with its own clock and skips the write when the validity is gone (see
// the type's comment).
func (c *redlockClient) workDone(ctx Ctx) {
	if ctx.Scenario().CheckValidity && ctx.Mono() >= c.until {
		c.lose(ctx, "its work ended after the validity ran out on its own clock: it does not write", say("note.redlock.workLate"))
		return
	}
	c.phase = redlockWriting
	c.Write(ctx, 0)
}

// release ends the belief voluntarily and unlocks every master (redsync's
// Unlock); the answers do not matter any more.
func (c *redlockClient) release(ctx Ctx) {
	c.Release(ctx)
	ctx.Cancel(c.validity)
	ctx.Cancel(c.watchdog)
	c.validity, c.watchdog = 0, 0
	c.newBatch(ctx, redlockReleased)
	for i := range c.masters {
		c.send(ctx, i, Msg{Op: OpCAD, Value: c.value})
	}
	c.Rest(ctx)
}

// detail is the client's one-line note in the cluster view.
func (c *redlockClient) detail(a RedlockAttempt) (string, Words) {
	yes := 0
	for _, v := range a.Votes {
		if v == VoteYes {
			yes++
		}
	}
	switch a.Phase {
	case "":
		return "", Words{}
	case redlockHolding, redlockExtending, redlockWriting:
		return fmt.Sprintf("%s: validity left %s", a.Phase, redlockMs(a.Left)),
			say("detail.redlock.left", "left", redlockMs(a.Left)).term("phase", a.Phase)
	case redlockAcquiring:
		return fmt.Sprintf("try %d: %d/%d yes", a.Number, yes, len(a.Votes)),
			say("detail.redlock.votes", "try", strconv.Itoa(a.Number), "yes", strconv.Itoa(yes), "n", strconv.Itoa(len(a.Votes)))
	}
	return fmt.Sprintf("try %d: %s", a.Number, a.Phase), say("detail.redlock.phase", "try", strconv.Itoa(a.Number)).term("phase", a.Phase)
}

// redlockMs writes a duration in milliseconds, as every figure shown is.
func redlockMs(d time.Duration) string {
	return strconv.FormatFloat(round3(Ms(d)), 'f', -1, 64) + " ms"
}
