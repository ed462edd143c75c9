package sim

import (
	"fmt"
	"sort"
	"time"
)

// KeyView is a lock key as one Redis server holds it.
type KeyView struct {
	Key     string
	Owner   string        // the client whose random value is stored
	Value   string        // the random value itself
	TTL     time.Duration // the PX it was last set with
	Left    time.Duration // time to expiry by the server's own clock
	Expired bool          // past its deadline, not yet removed
	Holds   int           // Redisson's hold count; 0 for a plain SET NX key
}

// RedisServerView is one Redis server's keyspace.
type RedisServerView struct {
	Node    int // index into Snapshot.Nodes
	Role    string
	Keys    []KeyView
	Counter int64 // the fencing INCR counter
}

// RedisView is the single-instance Redis lock: master and optional replica.
type RedisView struct {
	Servers []RedisServerView
	Master  int // index into Snapshot.Nodes of the current master
}

// LockKey is the key every Redis-based lock uses.
const LockKey = "lock"

// RequestTimeout is how long a Redis client waits for a reply before it
// resends the command (Redisson's default `timeout`, 3000 ms).
const RequestTimeout = 3 * time.Second

// RedissonRetryAttempts is how many times Redisson resends a command whose
// reply did not come within RequestTimeout before the command fails: its
// default `retryAttempts` of 3 (redisson/redisson
// redisson/src/main/java/org/redisson/config/BaseConfig.java). The resend
// is immediate: RedisExecutor.scheduleResponseTimeout's timer task calls
// execute() again while attempt < attempts
// (redisson/src/main/java/org/redisson/command/RedisExecutor.java); the
// `retryInterval` of 1500 ms only paces attempts whose command could not
// even be written to a connection, which the simulator has no notion of.
// A command the server already ran is run again: nothing makes the resend
// idempotent.
const RedissonRetryAttempts = 3

// Redis wire operations: requests and the replies a server gives.
const (
	OpSet      = "SET"     // SET key value NX PX ttl (with fencing: + INCR)
	OpCAD      = "CAD"     // compare-and-delete script
	OpDel      = "DEL"     // bare DEL
	OpPExpire  = "PEXPIRE" // compare-and-PEXPIRE script (watchdog)
	OpLock     = "LOCK"    // Redisson's lock script: a hash whose hold count a re-entry increments
	OpUnlock   = "UNLOCK"  // Redisson's unlock script: decrements the hold count, deletes at 0
	OpOK       = "OK"
	OpNil      = "nil"
	OpInt      = "INT"      // integer reply in N
	OpRepl     = "REPL"     // replication stream entry to a replica
	OpReadOnly = "READONLY" // error reply of a replica to a write
)

func init() { RegisterMode(redisMode{}) }

type redisMode struct{}

func (redisMode) Name() string { return "redis" }

// redisTraits: one master (and its replica), a key with a TTL, and a
// fencing token only when the client INCRs a counter for one.
var redisTraits = Traits{
	LeaseWord: "ttl", ServerWord: "servers", Token: TokenWhenFencing,
	Fields: []string{"replica", "watchdog", "fencing", "plainDel", "failoverAfter"},
}

func (redisMode) Traits() Traits { return redisTraits }

// SentinelDownAfter is Redis Sentinel's default down-after-milliseconds,
// 30000 (redis/redis src/sentinel.c: SENTINEL_DEFAULT_DOWN_AFTER): how long
// the master must not answer PING before a Sentinel calls it subjectively
// down. The whole failover takes longer still: the quorum's agreement
// (is-master-down-by-addr, asked every SENTINEL_ASK_PERIOD of 1 s), the
// leader election (a random start delay of up to SENTINEL_MAX_DESYNC, 1 s)
// and the replica's promotion confirmed by INFO.
const SentinelDownAfter = 30 * time.Second

// DefaultFailoverAfter is LockScope's default Sentinel delay: short enough
// to watch, long enough to see the clients talk to a dead master first.
const DefaultFailoverAfter = 3 * time.Second

func (redisMode) Defaults(sc *Scenario) {
	sc.Nodes = 1
	sc.Tries = 0
	sc.FailoverAfter = Duration(DefaultFailoverAfter)
}

// Validate has nothing of its own to check: the fields Redis does not
// read are refused from its Traits.
func (redisMode) Validate(sc *Scenario) error { return nil }

func (redisMode) Servers(sc *Scenario) []string {
	if sc.Replica {
		return []string{"redis-1", "redis-2"}
	}
	return []string{"redis-1"}
}

func (redisMode) CanFailover(sc *Scenario, node string) error {
	if !sc.Replica {
		return FieldErr("", say("field.failoverReplica"), "failover needs a replica: set \"replica\": true")
	}
	if node != "redis-1" {
		return FieldErr("", say("field.notMaster", "node", node), "%s is not the master; fail over redis-1", node)
	}
	return nil
}

func (redisMode) NewServer(sc *Scenario, i int) Process {
	s := &RedisServer{Role: "master", Replica: None}
	if i == 1 {
		s.Role = "replica"
	}
	return s
}

func (redisMode) NewClient(sc *Scenario, i int) Process {
	return &redisClient{}
}

// Failover is the master's failure that Sentinel acts on: the master
// crashes now, and failoverAfter later Sentinel promotes the replica
// (SLAVEOF NO ONE, a message to the replica, so a paused replica obeys
// late) and publishes +switch-master, which the clients follow (Redisson's
// sentinel manager subscribes to it). Until then the clients talk to the
// dead master: their requests time out and are resent there. A request
// the old master never answered is resent to the new one; a reply it sent
// before dying still arrives. With failoverAfter 0 the promotion is
// immediate. Sentinel's decision is drawn on the timeline as a mark.
func (redisMode) Failover(s *Sim, node NodeID) {
	rid := s.Lookup("redis-2")
	s.CrashNode(node)
	if rid == None || s.Nodes[rid].Crashed {
		return
	}
	if d := s.Scenario.FailoverAfter.D(); d > 0 {
		s.Ctx(rid).After(d, Timer{Kind: timerSentinel, Seq: int64(node)})
		return
	}
	sentinelPromote(s.Ctx(rid), node)
}

// timerSentinel is Sentinel's promotion order reaching the replica.
const timerSentinel = "sentinel"

// sentinelPromote promotes the replica of ctx and points every client at
// it, unless the failed master came back first (then Sentinel's SDOWN
// clears and there is no failover).
func sentinelPromote(ctx Ctx, failed NodeID) {
	s := ctx.Sim()
	if !s.Nodes[failed].Crashed {
		ctx.TraceSaid("sentinel", "", "the master answers again: no failover", say("note.redis.sentinelNoFailover"))
		return
	}
	rep := s.Nodes[ctx.ID()].Proc.(*RedisServer)
	if rep.Role != "replica" {
		return
	}
	rep.promote(ctx)
	s.Check.fault(s.Now(), "promote", s.Nodes[ctx.ID()].Name, "")
	for i := range s.Nodes {
		if c, ok := s.Nodes[i].Proc.(*redisClient); ok && !s.Nodes[i].Crashed {
			c.master = ctx.ID()
		}
	}
}

func (redisMode) View(s *Sim, snap *Snapshot) {
	v := &RedisView{Master: int(s.Lookup("redis-1"))}
	for _, id := range s.Servers() {
		srv := s.Nodes[id].Proc.(*RedisServer)
		snap.Nodes[id].Role = srv.Role
		if srv.Role == "master" && !s.Nodes[id].Crashed {
			v.Master = int(id)
		}
		v.Servers = append(v.Servers, srv.View(s, id))
	}
	for i := range s.Nodes {
		if c, ok := s.Nodes[i].Proc.(*redisClient); ok {
			snap.Nodes[i].Detail, snap.Nodes[i].DetailWords = c.detail()
		}
	}
	snap.Design = v
}

// DesignName says the view is Redis's.
func (*RedisView) DesignName() string { return redisMode{}.Name() }

// Redis is the snapshot's Redis's part; nil in another design's snapshot.
func (s *Snapshot) Redis() *RedisView {
	v, _ := DesignOf[*RedisView](s)
	return v
}

// redisKey is a key as a Redis server stores it.
type redisKey struct {
	value    string
	owner    NodeID
	holds    int // Redisson's hold count (the hash field's value); 0 for a plain SET NX key
	ttl      time.Duration
	deadline time.Duration // absolute, on the server's wall clock (PXAT)
}

// RedisServer is one redis-server process: a keyspace whose keys expire by
// the server's own wall clock, a fencing counter, and optionally a replica
// it ships every write to. Redlock uses it for each of its masters.
type RedisServer struct {
	Role    string // master or replica
	keys    keyspace
	counter int64
	Replica NodeID
	durable keyspace // what AOF (fsync always) has on disk
	dCount  int64
}

// keyspace is a server's keys in the order they were set. A lock's
// keyspace holds one key or none, so a short list found by comparing
// names beats a map, which hashed the name on every command (a tenth of a
// Redlock sweep's time went to the lookups).
type keyspace []namedKey

type namedKey struct {
	name string
	redisKey
}

// get is the key called name.
func (ks keyspace) get(name string) (redisKey, bool) {
	for i := range ks {
		if ks[i].name == name {
			return ks[i].redisKey, true
		}
	}
	return redisKey{}, false
}

// set writes the key called name, in place if it exists.
func (ks *keyspace) set(name string, kv redisKey) {
	for i := range *ks {
		if (*ks)[i].name == name {
			(*ks)[i].redisKey = kv
			return
		}
	}
	*ks = append(*ks, namedKey{name, kv})
}

// del removes the key called name, if it exists.
func (ks *keyspace) del(name string) {
	for i := range *ks {
		if (*ks)[i].name == name {
			*ks = append((*ks)[:i], (*ks)[i+1:]...)
			return
		}
	}
}

// names lists the keys' names.
func (ks keyspace) names() []string {
	out := make([]string, len(ks))
	for i := range ks {
		out[i] = ks[i].name
	}
	return out
}

func (ks keyspace) clone() keyspace { return append(keyspace(nil), ks...) }

// Clone implements Process.
func (r *RedisServer) Clone() Process {
	c := *r
	c.keys = r.keys.clone()
	c.durable = r.durable.clone()
	return &c
}

// Start implements Process.
func (r *RedisServer) Start(ctx Ctx) {
	if r.Role == "master" && ctx.Name() == "redis-1" {
		r.Replica = ctx.Lookup("redis-2")
	}
	for _, k := range r.keys {
		if r.Role == "master" {
			ctx.Own(k.name, k.owner)
			ctx.AtWall(k.deadline, Timer{Kind: "expire", Key: k.name})
		}
	}
}

// Crash implements Process: memory is gone, the AOF stays on disk. With
// appendfsync always every write (and every expiry's DEL) reached the AOF
// before its reply, so the AOF holds exactly the keyspace at the crash.
func (r *RedisServer) Crash(ctx Ctx) {
	for _, k := range r.keys {
		if r.Role == "master" {
			ctx.Disown(k.name, false)
		}
	}
	r.durable, r.dCount = r.keys, r.counter
	r.keys = nil
	r.counter = 0
}

// Restart implements Process: with persist the AOF is replayed; keys whose
// deadline passed while down expire at once. A master that was failed over
// comes back as the new master's replica, empty.
func (r *RedisServer) Restart(ctx Ctx, persist bool) {
	if persist {
		r.keys = r.durable.clone()
		r.counter = r.dCount
	}
	if r.Role == "master" {
		for _, id := range ctx.Sim().Servers() {
			if o, ok := ctx.Sim().Nodes[id].Proc.(*RedisServer); ok && id != ctx.ID() && o.Role == "master" && o.Replica == None && ctx.Sim().Scenario.Mode == "redis" {
				r.Role = "replica"
				r.keys = nil
				o.Replica = ctx.ID()
				o.fullSync(ctx.Sim().Ctx(id))
			}
		}
	}
	r.Start(ctx)
}

// live returns the key if it exists and has not expired by this server's
// clock, expiring it lazily otherwise (as Redis does on access).
func (r *RedisServer) live(ctx Ctx, key string) (redisKey, bool) {
	kv, ok := r.keys.get(key)
	if !ok {
		return kv, false
	}
	if r.Role == "master" && ctx.Wall() >= kv.deadline {
		r.expire(ctx, key)
		return kv, false
	}
	return kv, true
}

func (r *RedisServer) expire(ctx Ctx, key string) {
	r.keys.del(key)
	ctx.Disown(key, true)
	ctx.Trace("expire", key, "")
	r.ship(ctx, Msg{Op: OpRepl, Key: key})
}

// ship sends a write to the replica, right after applying it (async).
func (r *RedisServer) ship(ctx Ctx, m Msg) {
	if r.Replica != None && r.Role == "master" {
		m.Token = r.counter
		ctx.Send(r.Replica, m)
	}
}

func (r *RedisServer) fullSync(ctx Ctx) {
	for _, k := range r.keys {
		r.ship(ctx, replOf(k.name, k.redisKey))
	}
	r.ship(ctx, Msg{Op: OpRepl})
}

func (r *RedisServer) promote(ctx Ctx) {
	r.Role = "master"
	r.Replica = None
	ctx.TraceSaid("promote", "", "replica promoted to master", say("note.redis.promoted"))
	for _, k := range r.keys.names() { // live may expire one
		if kv, ok := r.live(ctx, k); ok {
			ctx.Own(k, kv.owner)
			ctx.AtWall(kv.deadline, Timer{Kind: "expire", Key: k})
		}
	}
}

// Receive implements Process: one command, one reply.
func (r *RedisServer) Receive(ctx Ctx, from NodeID, m *Msg) {
	if m.Op == OpRepl {
		r.applyRepl(ctx, m)
		return
	}
	if r.Role != "master" {
		// A replica refuses writes at once: -READONLY You can't write
		// against a read only replica.
		if m.Op == OpSet || m.Op == OpCAD || m.Op == OpDel || m.Op == OpPExpire || m.Op == OpLock || m.Op == OpUnlock {
			ctx.Send(from, Msg{Op: OpReadOnly, Seq: m.Seq, Key: m.Key})
		}
		return
	}
	reply := Msg{Seq: m.Seq, Key: m.Key}
	switch m.Op {
	case OpSet:
		if _, held := r.live(ctx, m.Key); held {
			reply.Op = OpNil
			break
		}
		kv := redisKey{value: m.Value, owner: from, ttl: m.TTL, deadline: ctx.Wall() + m.TTL}
		r.keys.set(m.Key, kv)
		if m.N == 1 { // the fencing script also INCRs the token counter
			r.counter++
		}
		reply.Op, reply.Token = OpOK, r.counter
		ctx.Own(m.Key, from)
		ctx.AtWall(kv.deadline, Timer{Kind: "expire", Key: m.Key})
		r.ship(ctx, replOf(m.Key, kv))
	case OpLock:
		r.lockScript(ctx, from, m, &reply)
	case OpUnlock:
		r.unlockScript(ctx, m, &reply)
	case OpCAD, OpDel:
		kv, held := r.live(ctx, m.Key)
		reply.Op = OpInt
		if held && (m.Op == OpDel || kv.value == m.Value) {
			r.keys.del(m.Key)
			ctx.Disown(m.Key, false)
			reply.N = 1
			r.ship(ctx, Msg{Op: OpRepl, Key: m.Key})
		}
	case OpPExpire:
		kv, held := r.live(ctx, m.Key)
		reply.Op = OpInt
		if held && kv.value == m.Value {
			kv.deadline = ctx.Wall() + m.TTL
			kv.ttl = m.TTL
			r.keys.set(m.Key, kv)
			ctx.AtWall(kv.deadline, Timer{Kind: "expire", Key: m.Key})
			reply.N = 1
			r.ship(ctx, replOf(m.Key, kv))
		}
	default:
		return
	}
	ctx.Send(from, reply)
}

// replOf is the replication stream's entry for a key: its value, owner,
// TTL and deadline, and the hold count carried in Seq.
func replOf(key string, kv redisKey) Msg {
	return Msg{Op: OpRepl, Key: key, Value: kv.value, N: int64(kv.owner), TTL: kv.ttl, Deadline: kv.deadline, Seq: int64(kv.holds)}
}

func (r *RedisServer) applyRepl(ctx Ctx, m *Msg) {
	if r.Role != "replica" {
		return
	}
	r.counter = m.Token
	if m.Key == "" {
		return
	}
	if m.Value == "" {
		r.keys.del(m.Key)
	} else {
		r.keys.set(m.Key, redisKey{value: m.Value, owner: NodeID(m.N), ttl: m.TTL, deadline: m.Deadline, holds: int(m.Seq)})
	}
}

// lockScript is Redisson's lock script (RedissonLock.tryLockInnerAsync,
// redisson/redisson redisson/src/main/java/org/redisson/RedissonLock.java):
// if the key does not exist, or its hash has the caller's field, HINCRBY
// the field by 1, PEXPIRE the key and answer nil (granted); otherwise
// answer the key's PTTL (held by another). So the same client's second
// lock — or a resend of a lock the server already ran — is a re-entry
// that raises the hold count to 2. With fencing the token counter is
// INCRed on a fresh grant only.
func (r *RedisServer) lockScript(ctx Ctx, from NodeID, m *Msg, reply *Msg) {
	kv, held := r.live(ctx, m.Key)
	if held && kv.value != m.Value {
		reply.Op = OpNil
		return
	}
	if held {
		kv.holds++
		ctx.TraceSaid("reenter", OpLock, fmt.Sprintf("the holder's own field: hold count %d", kv.holds),
			say("note.redis.reentered", "n", fmt.Sprint(kv.holds)))
	} else {
		kv = redisKey{value: m.Value, owner: from, holds: 1}
		if m.N == 1 {
			r.counter++
		}
		ctx.Own(m.Key, from)
	}
	kv.ttl, kv.deadline = m.TTL, ctx.Wall()+m.TTL
	r.keys.set(m.Key, kv)
	reply.Op, reply.Token, reply.N = OpOK, r.counter, int64(kv.holds)
	ctx.AtWall(kv.deadline, Timer{Kind: "expire", Key: m.Key})
	r.ship(ctx, replOf(m.Key, kv))
}

// unlockScript is Redisson's unlock script (RedissonLock.unlockInnerAsync):
// a key without the caller's field answers nil (−1 here: not locked by
// this client); otherwise HINCRBY the field by −1, and while the count is
// above 0 PEXPIRE the key again and answer 0, or DEL it and answer 1.
func (r *RedisServer) unlockScript(ctx Ctx, m *Msg, reply *Msg) {
	reply.Op = OpInt
	kv, held := r.live(ctx, m.Key)
	if !held || kv.value != m.Value {
		reply.N = -1
		return
	}
	kv.holds--
	if kv.holds > 0 {
		kv.ttl, kv.deadline = m.TTL, ctx.Wall()+m.TTL
		r.keys.set(m.Key, kv)
		ctx.AtWall(kv.deadline, Timer{Kind: "expire", Key: m.Key})
		r.ship(ctx, replOf(m.Key, kv))
		return
	}
	r.keys.del(m.Key)
	ctx.Disown(m.Key, false)
	reply.N = 1
	r.ship(ctx, Msg{Op: OpRepl, Key: m.Key})
}

// Fire implements Process: active expiry when a key's deadline comes, and
// Sentinel's promotion order on a replica.
func (r *RedisServer) Fire(ctx Ctx, t Timer) {
	if t.Kind == timerSentinel {
		sentinelPromote(ctx, NodeID(t.Seq))
		return
	}
	if t.Kind != "expire" || r.Role != "master" {
		return
	}
	if kv, ok := r.keys.get(t.Key); ok && ctx.Wall() >= kv.deadline {
		r.expire(ctx, t.Key)
	}
}

func (r *RedisServer) View(s *Sim, id NodeID) RedisServerView {
	v := RedisServerView{Node: int(id), Role: r.Role, Counter: r.counter}
	wall := s.Nodes[id].Clock.Wall(s.now)
	names := r.keys.names()
	sort.Strings(names)
	for _, k := range names {
		kv, _ := r.keys.get(k)
		kvw := KeyView{Key: k, Value: kv.value, TTL: kv.ttl, Left: kv.deadline - wall, Holds: kv.holds}
		if kv.owner >= 0 && int(kv.owner) < len(s.Nodes) {
			kvw.Owner = s.Nodes[kv.owner].Name
		}
		kvw.Expired = kvw.Left <= 0
		v.Keys = append(v.Keys, kvw)
	}
	return v
}

// redisClient is a Redisson RLock client of a single Redis master: the lock
// script to acquire (retried while held), watchdog renewal, the unlock
// script to release. Every command that gets no reply in RequestTimeout is
// resent at once, RedissonRetryAttempts times, before it fails.
type redisClient struct {
	Loop
	master   NodeID
	value    string
	seq      int64
	pending  Msg           // the request awaiting a reply (Op "" for none)
	attempt  int           // resends of the pending request so far
	deadline time.Duration // when the pending request times out, on the monotonic clock
	armed    bool          // a timeout timer is pending
	renewing bool
	renewals int
}

func (c *redisClient) Clone() Process { cp := *c; return &cp }

func (c *redisClient) detail() (string, Words) {
	if c.renewing {
		return fmt.Sprintf("watchdog: %d renewals", c.renewals), say("detail.redis.watchdog", "n", fmt.Sprint(c.renewals))
	}
	return "", Words{}
}

func (c *redisClient) Start(ctx Ctx) {
	if c.master == 0 {
		c.master = ctx.Lookup("redis-1")
	}
	c.begin(ctx)
}

func (c *redisClient) Crash(ctx Ctx) {
	master := c.master
	*c = redisClient{master: master}
}

func (c *redisClient) Restart(ctx Ctx, persist bool) { c.Start(ctx) }

func (c *redisClient) begin(ctx Ctx) {
	if !c.Begin(ctx) {
		return
	}
	c.value = fmt.Sprintf("%08x:1", ctx.Rand().Uint32())
	c.trySet(ctx)
}

// request sends a new command; send (re)sends the pending one.
func (c *redisClient) request(ctx Ctx, m Msg) {
	m.Key = LockKey
	c.pending = m
	c.attempt = 0
	c.send(ctx)
}

// send puts the pending command on the wire under a fresh sequence number,
// so a late reply to an earlier attempt is ignored, as Redisson ignores the
// reply of an attempt it cancelled.
func (c *redisClient) send(ctx Ctx) {
	c.seq++
	c.pending.Seq = c.seq
	ctx.Send(c.master, c.pending)
	// One lazy timer serves every request: it is re-armed for the pending
	// request's deadline when it fires early, instead of being cancelled
	// and set again on each request.
	c.deadline = ctx.Mono() + RequestTimeout
	if !c.armed {
		c.armed = true
		ctx.After(RequestTimeout, Timer{Kind: "timeout"})
	}
}

func (c *redisClient) trySet(ctx Ctx) {
	sc := ctx.Scenario()
	m := Msg{Op: OpLock, Value: c.value, TTL: sc.TTL.D()}
	if sc.Fencing {
		m.N = 1
	}
	c.request(ctx, m)
}

// renewAfter schedules the watchdog's next renewal TTL/3 from now, as
// Redisson's RenewalTask.schedule does after each run, whether the run
// renewed or failed (redisson/redisson
// redisson/src/main/java/org/redisson/renewal/RenewalTask.java, run: an
// error is logged and the task is scheduled again). Only an answer that
// the lock is gone (LockTask.renew: the field no longer exists) or the
// unlock cancels it.
func (c *redisClient) renewAfter(ctx Ctx) {
	if c.State == StateHolding && c.renewing {
		ctx.After(ctx.Scenario().TTL.D()/3, Timer{Kind: "watchdog"})
	}
}

func (c *redisClient) Receive(ctx Ctx, from NodeID, m *Msg) {
	if handled, written := c.StorageReply(ctx, from, m); handled {
		if written {
			c.release(ctx)
		}
		return
	}
	if m.Seq != c.pending.Seq || c.pending.Op == "" {
		return // a late reply to an attempt already timed out
	}
	req := c.pending
	c.pending = Msg{}
	switch req.Op {
	case OpLock:
		if c.State != StateWaiting {
			return
		}
		if m.Op == OpOK {
			c.Grant(ctx, m.Token, 0)
			if ctx.Scenario().Watchdog {
				c.renewing = true
				c.renewAfter(ctx)
			}
			return
		}
		if m.Op == OpReadOnly {
			c.retry(ctx, "READONLY: the node is a replica", "note.redis.readOnly")
			return
		}
		c.retry(ctx, "held by another client", "note.redis.held")
	case OpPExpire:
		if m.N == 1 {
			c.renewals++
			c.renewAfter(ctx)
		} else {
			c.renewing = false
			ctx.TraceSaid("watchdog", OpPExpire, "renewal returned 0: the lock is gone, renewal stops", say("note.redis.renewalGone"))
		}
	case OpUnlock, OpDel:
		switch {
		case m.N == 0 && req.Op == OpUnlock:
			ctx.TraceSaid("release", req.Op, "returned 0: the hold count is still above 0, the key stays until its TTL runs out",
				say("note.redis.stillHeld"))
		case m.N < 0:
			ctx.TraceSaid("release", req.Op, "returned nil: the lock was no longer ours", say("note.redis.unlockNotOurs"))
		case m.N == 0:
			ctx.TraceSaid("release", req.Op, "returned 0: the lock was no longer ours", say("note.redis.releaseNotOurs"))
		}
	}
}

// retry counts a failed try and schedules the next; key is why's
// translation, built only for a run someone reads.
func (c *redisClient) retry(ctx Ctx, why, key string) {
	var words Words
	if !ctx.Quiet() {
		words = say(key)
	}
	if c.Failed(ctx, why, words) {
		ctx.After(RetryDelay(ctx), Timer{Kind: TimerRetry})
	}
}

func (c *redisClient) Fire(ctx Ctx, t Timer) {
	switch c.Loop.Fire(ctx, t) {
	case "work":
		c.finish(ctx)
		return
	case "begin":
		c.begin(ctx)
		return
	}
	switch t.Kind {
	case TimerRetry:
		if c.State == StateWaiting {
			c.trySet(ctx)
		}
	case "watchdog":
		if c.State == StateHolding && c.renewing && c.pending.Op == "" {
			c.request(ctx, Msg{Op: OpPExpire, Value: c.value, TTL: ctx.Scenario().TTL.D()})
		}
	case "timeout":
		c.armed = false
		if c.pending.Op == "" {
			return
		}
		if left := c.deadline - ctx.Mono(); left > time.Microsecond {
			c.armed = true
			ctx.After(left, Timer{Kind: "timeout"})
			return
		}
		if c.attempt < RedissonRetryAttempts {
			c.attempt++
			ctx.TraceSaid("resend", c.pending.Op, fmt.Sprintf("no reply in %v: resent (attempt %d of %d)", RequestTimeout, c.attempt+1, RedissonRetryAttempts+1),
				say("note.redis.resent", "timeout", RequestTimeout.String(), "n", fmt.Sprint(c.attempt+1), "of", fmt.Sprint(RedissonRetryAttempts+1)))
			c.send(ctx)
			return
		}
		req := c.pending
		c.pending = Msg{}
		if ctx.Tracing() {
			ctx.TraceSaid("timeout", req.Op, fmt.Sprintf("no reply to %d attempts of %v", RedissonRetryAttempts+1, RequestTimeout),
				say("note.redis.noReply", "timeout", RequestTimeout.String(), "n", fmt.Sprint(RedissonRetryAttempts+1)))
		}
		switch req.Op {
		case OpLock:
			if c.State == StateWaiting {
				c.retry(ctx, "timed out", "note.redis.timedOut")
			}
		case OpPExpire:
			c.renewAfter(ctx) // a failed renewal is tried again, not given up
		}
	}
}

// finish ends the work: the write goes to the storage (Redisson's lock
// has nothing to check before it), and release follows its answer.
func (c *redisClient) finish(ctx Ctx) { c.Write(ctx, c.Token) }

// release ends the critical section once the storage answered the write.
// The unlock also cancels the watchdog (RedissonBaseLock.unlockAsync0
// calls cancelExpirationRenewal whatever the script answers).
func (c *redisClient) release(ctx Ctx) {
	c.Release(ctx)
	c.renewing = false
	m := Msg{Op: OpUnlock, Value: c.value, TTL: ctx.Scenario().TTL.D()}
	if ctx.Scenario().PlainDel {
		m = Msg{Op: OpDel}
	}
	c.pending = Msg{}
	c.request(ctx, m)
	c.Rest(ctx)
}
