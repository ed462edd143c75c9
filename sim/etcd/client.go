package etcd

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// ---------------------------------------------------------------------------
// The client: a clientv3 with a concurrency.Session and Mutex.

// Client phases: which unary call is outstanding.
const (
	phIdle    = ""
	phGrant   = "grant"
	phAcquire = "acquire" // tryAcquire's Txn
	phQuery   = "query"   // waitDeletes' Get(prefix, last create, max create rev)
	phWatch   = "watch"   // waiting for a delete event
	phCheck   = "check"   // Get(myKey) after waiting
	phAbandon = "abandon" // Unlock after a failed wait
	phWork    = "work"
	phWrite   = "write" // the IsOwner-guarded Txn
	phUnlock  = "unlock"
	phClose   = "close" // Session.Close: revoke
)

// Session states as the cluster view shows them.
const (
	sessNone     = "none"
	sessGranting = "granting"
	sessAlive    = "alive"
	sessExpired  = "expired" // Session.Done() closed
)

type etcdClient struct {
	sim.Loop
	index   int
	servers []sim.NodeID
	ep      int // endpoint of unary calls and watches
	kaEp    int // endpoint of the keepalive stream
	seq     int64
	pendSeq int64 // the outstanding unary call; 0 for none
	phase   string
	why     etcdErr // the error that ended a wait

	req       sim.Msg       // the outstanding call, kept for retries
	reqEnd    time.Duration // its context deadline, monotonic
	retries   int
	resending bool // waiting out the retry backoff

	sess       string
	lease      int64
	leaseTTL   time.Duration
	nextKA     time.Duration // monotonic
	deadline   time.Duration // monotonic
	kaStream   bool
	kaOpening  bool          // the stream's first keepalive is still to go (it opens the stream)
	kaPhase    time.Duration // last tick of sendKeepAliveLoop
	dlPhase    time.Duration // last tick of deadlineLoop
	kaGen      int64
	dlGen      int64
	keepalives int // answers for the current lease

	myKey string
	myRev int64

	periods int // election use: periods of work led since Campaign returned (election.go)

	watchID     int64
	watchKey    string
	watchPrefix bool
	watchFrom   int64
	watching    bool
	watchAcked  bool
	requery     bool

	reentry reentry // the nested section of the reenter option (reenter.go)
}

func (c *etcdClient) Clone() sim.Process {
	cp := *c
	cp.servers = append([]sim.NodeID(nil), c.servers...)
	return &cp
}

func (c *etcdClient) Start(ctx sim.Ctx) {
	if c.servers == nil {
		c.servers = make([]sim.NodeID, Nodes.Of(ctx.Scenario()))
		for i := range c.servers {
			c.servers[i] = ctx.Lookup(memberName(i))
		}
		c.ep = c.index % len(c.servers)
		c.kaEp = c.ep
	}
	if c.sess == "" {
		c.sess = sessNone
	}
	c.begin(ctx)
}

// Crash implements Process: the process and its sockets are gone.
func (c *etcdClient) Crash(ctx sim.Ctx) {
	if len(c.servers) > 0 {
		ctx.Send(c.servers[c.ep], sim.Msg{Op: OpRST})
		if c.kaStream && c.kaEp != c.ep {
			ctx.Send(c.servers[c.kaEp], sim.Msg{Op: OpRST})
		}
	}
	*c = etcdClient{index: c.index, servers: c.servers, ep: c.ep, kaEp: c.ep, sess: sessNone}
}

func (c *etcdClient) Restart(ctx sim.Ctx, persist bool) { c.Start(ctx) }

func (c *etcdClient) server() sim.NodeID { return c.servers[c.ep] }

func (c *etcdClient) switchEndpoint() { c.ep = (c.ep + 1) % len(c.servers) }

func (c *etcdClient) call(ctx sim.Ctx, m sim.Msg, phase string) {
	c.req, c.phase, c.retries, c.resending = m, phase, 0, false
	c.reqEnd = ctx.Mono() + etcdClientTimeout
	c.send(ctx)
}

func (c *etcdClient) send(ctx sim.Ctx) {
	c.seq++
	m := c.req
	m.Seq = c.seq
	c.pendSeq = c.seq
	ctx.Send(c.server(), m)
	ctx.After(max(c.reqEnd-ctx.Mono(), 0), sim.Timer{Kind: timerRPC, Seq: c.seq})
}

// busy reports whether a unary call is outstanding or about to be resent.
func (c *etcdClient) busy() bool { return c.pendSeq != 0 || c.resending }

// Retry policy of clientv3's interceptor: a repeatable call (Range,
// LeaseGrant, LeaseRevoke) failing with an Unavailable error is resent,
// after 25 ms ± 10 %, up to 100 times within its deadline; Txn and Delete
// are not, since the first attempt may have been applied (etcd-io/etcd
// client/v3 retry.go: retryLeaseClient.LeaseGrant uses
// withRetryPolicy(repeatable), isSafeRetryImmutableRPC retries
// codes.Unavailable; retry_interceptor.go; options.go:
// defaultBackoffWaitBetween 25 ms, defaultBackoffJitterFraction 0.10,
// defaultUnaryMaxRetries 100). A resent Grant whose first attempt was
// applied leaves a lease nobody keeps alive; it expires after its TTL.
const (
	retryBackoff    = 25 * time.Millisecond
	retryMaxRetries = 100
)

func (c *etcdClient) repeatable(why etcdErr) bool {
	return (c.req.Op == OpRange || c.req.Op == OpGrant || c.req.Op == OpRevoke) && unavailable(why) && c.retries < retryMaxRetries
}

// unavailable reports whether an error has gRPC code Unavailable, the only
// one the interceptor retries ("requested lease not found" is NotFound).
func unavailable(why etcdErr) bool {
	switch why {
	case errNoLeader, errTimeout, errLeaderChanged, errNotPrimary, errReset:
		return true
	}
	return false
}

func (c *etcdClient) begin(ctx sim.Ctx) {
	if !c.Begin(ctx) {
		return
	}
	c.acquire(ctx)
}

// acquire starts Mutex.Lock, with a new session if the last one is gone.
func (c *etcdClient) acquire(ctx sim.Ctx) {
	if c.sess != sessAlive {
		c.sess = sessGranting
		c.call(ctx, LeaseCall{Op: OpGrant, TTL: leaseSeconds(ctx.Scenario().TTL.D())}.Msg(), phGrant)
		return
	}
	if Readers.IsOn(ctx.Scenario()) {
		c.myKey = c.rwKey(ctx) // RWMutex: a new unique key each call (rwlock.go)
	}
	c.call(ctx, Txn{Kind: TxnLock, Key: c.myKey, Lease: c.lease}.Msg(), phAcquire)
}

// startKeepAlive is clientv3's KeepAlive: the first keepalive goes out at
// the next tick of the send loop, and the deadline is 5 s until answered.
func (c *etcdClient) startKeepAlive(ctx sim.Ctx) {
	now := ctx.Mono()
	c.nextKA, c.deadline = now, now+firstKeepAliveTimeout
	c.dlGen++
	if !c.kaStream {
		c.kaStream, c.kaOpening = true, true
		c.kaEp = c.ep
		c.kaPhase, c.dlPhase = now, now
		c.kaGen++
		c.sendKeepAlive(ctx)
	} else {
		c.kaGen++
		c.scheduleKA(ctx, now)
	}
	c.scheduleDeadline(ctx, now)
}

func (c *etcdClient) sendKeepAlive(ctx sim.Ctx) {
	ctx.Send(c.servers[c.kaEp], LeaseCall{Op: OpKeepAlive, Lease: c.lease, First: c.kaOpening}.Msg())
	c.kaOpening = false
	ctx.After(keepAliveTick, sim.Timer{Kind: timerKeepAlive, Seq: c.kaGen})
}

// scheduleKA wakes the send loop at its first tick after the next
// keepalive is due (it sends when nextKeepAlive is before now).
func (c *etcdClient) scheduleKA(ctx sim.Ctx, now time.Duration) {
	at := c.kaPhase + keepAliveTick
	if c.nextKA >= at {
		at += ((c.nextKA-at)/keepAliveTick + 1) * keepAliveTick
	}
	ctx.After(at-now, sim.Timer{Kind: timerKeepAlive, Seq: c.kaGen})
}

func (c *etcdClient) scheduleDeadline(ctx sim.Ctx, now time.Duration) {
	at := c.dlPhase + deadlineTick
	if c.deadline >= at {
		at += ((c.deadline-at)/deadlineTick + 1) * deadlineTick
	}
	ctx.After(at-now, sim.Timer{Kind: timerLeaseDeadline, Seq: c.dlGen})
}

func (c *etcdClient) kaTick(ctx sim.Ctx) {
	now := ctx.Mono()
	c.kaPhase = now
	if c.sess != sessAlive || !c.kaStream {
		return
	}
	if c.nextKA < now {
		c.sendKeepAlive(ctx)
		return
	}
	c.scheduleKA(ctx, now)
}

func (c *etcdClient) deadlineTickFired(ctx sim.Ctx) {
	now := ctx.Mono()
	c.dlPhase = now
	if c.sess != sessAlive {
		return
	}
	if c.deadline < now {
		ctx.Renewed(false) // no keepalive answered within the TTL
		c.sessionDone(ctx, "no keepalive answer within the lease TTL", sim.Say("note.etcd.noKeepAlive"))
		return
	}
	c.scheduleDeadline(ctx, now)
}

// sessionDone closes Session.Done(). The session's goroutine closes it
// when KeepAlive's channel closes (etcd-io/etcd, client/v3/concurrency/
// session.go, NewSession), which the lessor does when a keepalive is
// answered with TTL 0 (recvKeepAlive) or none came within the TTL
// (deadlineLoop, every second; client/v3/lease.go). That is the library
// telling the holder: it stops believing it holds the lock now
// (Loop.Tell). Its work does not look at the channel (nor did Jepsen's
// client; Mutex never reads it, client/v3/concurrency/mutex.go): the
// write goes out at the end of the work, and only the next Lock needs a
// new session.
func (c *etcdClient) sessionDone(ctx sim.Ctx, why string, words sim.Words) {
	c.sess = sessExpired
	c.dlGen++
	if ctx.Tracing() {
		ctx.TraceSaid(traceSession, "Done", fmt.Sprintf("lease %x: %s", c.lease, why),
			sim.Say("note.etcd.sessionDone", "lease", fmt.Sprintf("%x", c.lease)).Part("why", words))
	}
	if c.State == sim.StateHolding {
		var told sim.Words
		if ctx.Tracing() {
			told = sim.Say("note.etcd.toldDone")
		}
		c.Tell(ctx, "told by Session.Done(): it no longer believes it holds the lock", told)
	}
}

func (c *etcdClient) keepAliveBroken(ctx sim.Ctx, why etcdErr) {
	if !c.kaStream {
		return
	}
	c.kaStream = false
	c.kaGen++
	ctx.TraceSaid(traceSession, OpKeepAlive.String(), "keepalive stream broken: "+string(why)+"; reopening in "+keepAliveTick.String(),
		sim.Say("note.etcd.streamBroken", "err", string(why), "in", keepAliveTick.String()))
	ctx.After(keepAliveTick, sim.Timer{Kind: timerKeepAliveReopen, Seq: c.kaGen})
}

func (c *etcdClient) Receive(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	if handled, written := c.StorageReply(ctx, from, m); handled {
		if written {
			c.unlock(ctx)
		}
		return
	}
	switch m.Op {
	case OpRST:
		if c.kaStream && from == c.servers[c.kaEp] {
			c.kaEp = (c.kaEp + 1) % len(c.servers)
			c.keepAliveBroken(ctx, errReset)
		}
		if from == c.server() {
			if c.pendSeq != 0 {
				c.pendSeq = 0
				c.failed(ctx, errReset)
			} else if c.watching && !c.resending {
				c.switchEndpoint()
				c.openWatch(ctx)
			}
		}
		return
	case OpKeepAliveResp:
		ka := LeaseCallOf(m)
		if c.sess != sessAlive || ka.Lease != c.lease {
			return
		}
		if ka.TTL <= 0 {
			ctx.Renewed(false)
			c.sessionDone(ctx, "keepalive answered TTL 0: lease not found", sim.Say("note.etcd.ttlZero"))
			return
		}
		ctx.Renewed(true)
		now := ctx.Mono()
		c.keepalives++
		c.leaseTTL = ka.TTL
		c.nextKA, c.deadline = now+ka.TTL/3, now+ka.TTL
		return
	case OpKeepAliveErr:
		if from == c.servers[c.kaEp] {
			c.kaEp = (c.kaEp + 1) % len(c.servers)
			c.keepAliveBroken(ctx, LeaseCallOf(m).Err)
		}
		return
	case OpWatchCreated:
		if watchIDOf(m) == c.watchID {
			c.watchAcked = true
		}
		return
	case OpEventPut, OpEventDelete:
		c.watchEvent(ctx, m)
		return
	}
	if c.pendSeq == 0 || m.Seq != c.pendSeq {
		return // a late answer to a call already given up
	}
	c.pendSeq = 0
	if m.Op == OpError {
		c.failed(ctx, ErrorOf(m))
		return
	}
	if c.reentryAnswer(ctx, m) {
		return
	}
	switch c.phase {
	case phGrant:
		g := LeaseCallOf(m)
		c.sess, c.lease, c.leaseTTL, c.keepalives = sessAlive, g.Lease, g.TTL, 0
		c.myKey = Prefix + strconv.FormatInt(g.Lease, 16)
		if ctx.Tracing() {
			ctx.TraceSaid(traceSession, OpGrant.String(), fmt.Sprintf("lease %x granted, TTL %v", g.Lease, g.TTL),
				sim.Say("note.etcd.leaseGranted", "lease", fmt.Sprintf("%x", g.Lease), "ttl", g.TTL.String()))
		}
		c.startKeepAlive(ctx)
		if c.State == sim.StateWaiting {
			c.acquire(ctx)
		}
	case phAcquire:
		r := TxnRespOf(m)
		c.myRev = r.Rev
		if Readers.IsOn(ctx.Scenario()) {
			c.rwCreated(ctx) // RWMutex: waitOnLastRev first (rwlock.go)
			return
		}
		if (r.OwnerRev == c.myRev || r.OwnerKey == "") && !campaignWaits(ctx.Scenario()) {
			c.acquired(ctx)
			return
		}
		if ctx.Tracing() {
			ctx.TraceSaid(traceLock, OpTxn.String(), fmt.Sprintf("%s created at revision %d; owner %s has %d", c.myKey, c.myRev, r.OwnerKey, r.OwnerRev),
				sim.Say("note.etcd.created", "key", c.myKey, "rev", fmt.Sprint(c.myRev), "owner", r.OwnerKey, "ownerRev", fmt.Sprint(r.OwnerRev)))
		}
		c.query(ctx)
	case phQuery:
		if c.State != sim.StateWaiting {
			return
		}
		r := RangeRespOf(m)
		if r.Key == "" {
			c.cancelWatch(ctx)
			if !campaignChecks(ctx.Scenario()) || Readers.IsOn(ctx.Scenario()) { // RWMutex returns: no Get(myKey) (rwlock.go)
				c.acquired(ctx) // Campaign returns (election.go)
				return
			}
			c.call(ctx, Range{Kind: RangeKey, Key: c.myKey}.Msg(), phCheck)
			return
		}
		if Herd.Of(ctx.Scenario()) {
			if !c.watching {
				c.watch(ctx, Prefix, true, r.Rev)
			}
			c.phase = phWatch
			if c.requery {
				c.requery = false
				c.query(ctx)
			}
			return
		}
		c.phase = phWatch
		c.watch(ctx, r.Key, false, c.watchStart(ctx, r.Rev))
	case phCheck:
		if RangeRespOf(m).Key == "" {
			ctx.TraceSaid(traceLock, OpRange.String(), string(errSessionExpired)+": "+c.myKey+" is gone", sim.Say("note.etcd.keyGone", "err", string(errSessionExpired), "key", c.myKey))
			if c.sess == sessAlive {
				c.sess = sessExpired
				c.dlGen++
			}
			c.retry(ctx, errSessionExpired)
			return
		}
		c.acquired(ctx)
	case phAbandon:
		c.retry(ctx, c.why)
	case phWrite:
		// etcd recorded the write when it applied the Txn (applyEntry).
		c.WriteAnswered()
		if !TxnRespOf(m).Succeeded {
			ctx.TraceSaid(sim.TraceWrite, OpTxn.String(), fmt.Sprintf("guarded write refused: CreateRevision(%s) != %d", c.myKey, c.myRev),
				sim.Say("note.etcd.writeRefused", "key", c.myKey, "rev", fmt.Sprint(c.myRev)))
		}
		c.unlock(ctx)
	case phUnlock:
		c.afterUnlock(ctx)
	case phClose:
		c.phase = phIdle
	}
}

// query is one pass of waitDeletes: the latest key created before mine.
func (c *etcdClient) query(ctx sim.Ctx) {
	c.call(ctx, Range{Kind: RangeLast, Key: c.waitPrefix(ctx.Scenario()), MaxRev: c.myRev - 1}.Msg(), phQuery)
}

func (c *etcdClient) watch(ctx sim.Ctx, key string, prefix bool, from int64) {
	c.watchKey, c.watchPrefix, c.watchFrom = key, prefix, from
	c.openWatch(ctx)
	if !ctx.Tracing() {
		return
	}
	what, words := "the delete of "+key, sim.Say("note.etcd.waitDelete", "key", key, "rev", fmt.Sprint(from))
	if prefix {
		what, words = "any change under "+key, sim.Say("note.etcd.waitChange", "key", key, "rev", fmt.Sprint(from))
	}
	ctx.TraceSaid(traceLock, OpWatch.String(), fmt.Sprintf("waiting for %s from revision %d", what, from), words)
}

func (c *etcdClient) openWatch(ctx sim.Ctx) {
	c.watchID++
	c.watching, c.watchAcked = true, false
	ctx.Send(c.server(), Watch{ID: c.watchID, Key: c.watchKey, Prefix: c.watchPrefix, Start: c.watchFrom}.Msg())
	ctx.After(etcdClientTimeout, sim.Timer{Kind: timerWatchTimeout, Seq: c.watchID})
}

func (c *etcdClient) cancelWatch(ctx sim.Ctx) {
	if !c.watching {
		return
	}
	c.watching = false
	ctx.Send(c.server(), watchNote(OpWatchCancel, c.watchID))
}

func (c *etcdClient) watchEvent(ctx sim.Ctx, m *sim.Msg) {
	id, ev := WatchEventOf(m)
	if !c.watching || id != c.watchID || c.State != sim.StateWaiting {
		return
	}
	ctx.Notified()
	c.watchFrom = ev.Rev + 1
	if ev.Type != OpEventDelete {
		return
	}
	if Herd.Of(ctx.Scenario()) {
		if c.phase == phQuery && c.busy() {
			c.requery = true
			return
		}
		c.query(ctx)
		return
	}
	c.cancelWatch(ctx)
	c.query(ctx)
}

func (c *etcdClient) acquired(ctx sim.Ctx) {
	c.cancelWatch(ctx)
	c.phase = phWork
	c.periods = 0
	if c.rwAcquired(ctx) {
		return // RWMutex (rwlock.go)
	}
	if ctx.Tracing() {
		ctx.TraceSaid(traceLock, "acquired", fmt.Sprintf("%s is the oldest key: create revision %d", c.myKey, c.myRev),
			sim.Say("note.etcd.oldest", "key", c.myKey, "rev", fmt.Sprint(c.myRev)))
	}
	c.Grant(ctx, c.myRev, 0)
	c.armReentry(ctx)
}

// failed handles an error or a timeout of the outstanding call: the
// client moves to the next endpoint and the Mutex call returns the error.
func (c *etcdClient) failed(ctx sim.Ctx, why etcdErr) {
	ctx.TraceSaid(traceRPC, c.phase, string(why), sim.AsIs(string(why)))
	c.switchEndpoint()
	if c.repeatable(why) {
		c.retries++
		c.resending = true
		jitter := 1 + 0.1*(2*ctx.Rand().Float64()-1)
		ctx.After(time.Duration(float64(retryBackoff)*jitter), sim.Timer{Kind: timerResend, Seq: c.seq})
		return
	}
	if c.reentryFailed(ctx) {
		return
	}
	switch c.phase {
	case phGrant:
		c.sess = sessNone
		c.retry(ctx, why)
	case phAcquire:
		if why == errLeaseNotFound && c.sess == sessAlive {
			c.sessionDone(ctx, "the lease is gone", sim.Say("note.etcd.leaseGone"))
		}
		c.retry(ctx, why)
	case phQuery, phWatch, phCheck:
		// Lock: "release lock key if wait failed".
		c.cancelWatch(ctx)
		c.requery = false
		c.why = why
		c.call(ctx, sim.Msg{Op: OpDelete, Key: c.myKey}, phAbandon)
	case phAbandon:
		c.retry(ctx, c.why)
	case phWrite:
		ctx.After(sim.RetryDelay(ctx), sim.Timer{Kind: timerRewrite})
	case phUnlock:
		ctx.After(sim.RetryDelay(ctx), sim.Timer{Kind: timerReunlock})
	case phClose:
		c.phase = phIdle
	}
}

func (c *etcdClient) retry(ctx sim.Ctx, why etcdErr) {
	c.phase = phIdle
	if c.Failed(ctx, string(why), sim.AsIs(string(why))) {
		ctx.After(sim.RetryDelay(ctx), sim.Timer{Kind: sim.TimerRetry})
	} else if c.State == sim.StateDone {
		c.closeSession(ctx)
	}
}

func (c *etcdClient) Fire(ctx sim.Ctx, t sim.Timer) {
	switch c.Loop.Fire(ctx, t) {
	case sim.LoopWorkDone:
		c.finish(ctx)
		return
	case sim.LoopWrite:
		c.write(ctx)
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
		if c.State == sim.StateWaiting && !c.busy() {
			c.acquire(ctx)
		}
	case timerRPC:
		if c.pendSeq != 0 && t.Seq == c.pendSeq {
			c.pendSeq = 0
			c.failed(ctx, errDeadline)
		}
	case timerResend:
		if !c.resending || t.Seq != c.seq {
			return
		}
		c.resending = false
		if ctx.Mono() >= c.reqEnd {
			c.failed(ctx, errDeadline)
			return
		}
		c.send(ctx)
	case timerWatchTimeout:
		if c.watching && !c.watchAcked && t.Seq == c.watchID {
			c.switchEndpoint()
			c.openWatch(ctx)
		}
	case timerKeepAlive:
		if t.Seq == c.kaGen {
			c.kaTick(ctx)
		}
	case timerLeaseDeadline:
		if t.Seq == c.dlGen {
			c.deadlineTickFired(ctx)
		}
	case timerKeepAliveReopen:
		if t.Seq == c.kaGen && !c.kaStream {
			c.kaStream, c.kaOpening = true, true
			c.kaGen++
			now := ctx.Mono()
			c.kaPhase = now
			if c.sess == sessAlive && c.nextKA < now {
				c.sendKeepAlive(ctx)
			} else if c.sess == sessAlive {
				c.scheduleKA(ctx, now)
			}
		}
	case timerRewrite:
		if c.State == sim.StateHolding && !c.busy() {
			c.write(ctx)
		}
	case timerReunlock:
		if !c.busy() && c.phase == phUnlock {
			key, _ := c.mutexKey()
			c.call(ctx, sim.Msg{Op: OpDelete, Key: key}, phUnlock)
		}
	}
}

// finish ends the work: the write (to the storage node, or with fencing
// the IsOwner-guarded Txn, sent when the Loop says "write"), then Unlock
// once it is answered. Nothing is checked on the client: with fencing the
// check is the Txn's comparison, made by etcd when it applies the write.
func (c *etcdClient) finish(ctx sim.Ctx) { c.Write(ctx, c.myRev) }

// write is the fenced write: Txn(If(mutex.IsOwner()).Then(Put(storage))).
func (c *etcdClient) write(ctx sim.Ctx) {
	key, rev := c.mutexKey()
	c.call(ctx, Txn{Kind: TxnWrite, Key: key, Rev: rev}.Msg(), phWrite)
}

func (c *etcdClient) unlock(ctx sim.Ctx) {
	if c.electionNextPeriod(ctx) {
		return // the leader works on (election.go)
	}
	c.Release(ctx)
	key, _ := c.mutexKey()
	c.call(ctx, sim.Msg{Op: OpDelete, Key: key}, phUnlock)
}

func (c *etcdClient) afterUnlock(ctx sim.Ctx) {
	c.phase = phIdle
	c.Rest(ctx)
	if c.State == sim.StateDone {
		c.closeSession(ctx)
	}
}

// closeSession is Session.Close: stop the keepalives and revoke the lease.
func (c *etcdClient) closeSession(ctx sim.Ctx) {
	if c.sess == sessNone || c.lease == 0 {
		return
	}
	c.sess = sessNone
	c.dlGen++
	c.call(ctx, LeaseCall{Op: OpRevoke, Lease: c.lease}.Msg(), phClose)
}

func (c *etcdClient) session() string {
	if c.sess == "" {
		return sessNone
	}
	return c.sess
}

func (c *etcdClient) detail(s *sim.Sim) (string, sim.Words) {
	var parts []string
	key := "detail.etcd.client"
	words := sim.Say("", "n", fmt.Sprint(c.keepalives))
	if c.lease != 0 {
		parts = append(parts, fmt.Sprintf("lease %x ttl %v", c.lease, c.leaseTTL))
		key += "Lease"
		words.Args["lease"], words.Args["ttl"] = fmt.Sprintf("%x", c.lease), c.leaseTTL.String()
	}
	parts = append(parts, fmt.Sprintf("%d keepalives", c.keepalives))
	if len(c.servers) > 0 {
		parts = append(parts, "via "+s.Nodes[c.servers[c.ep]].Name)
		key += "Via"
		words.Args["server"] = s.Nodes[c.servers[c.ep]].Name
	}
	words.Key = key
	return strings.Join(parts, " · "), words
}
