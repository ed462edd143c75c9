package redis

import (
	"fmt"
	"sort"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// redisKey is a key as a Redis server stores it.
type redisKey struct {
	value string
	owner sim.NodeID
	holds int // Redisson's hold count (the hash field's value); 0 for a plain SET NX key
	// rw is the hash of Redisson's RReadWriteLock (rwlock.go): its mode
	// and its holders' fields; nil for any other key. It is never changed
	// in place (a copy of the keyspace shares it).
	rw       *rwHash
	ttl      time.Duration
	deadline time.Duration // absolute, on the server's wall clock (PXAT)
}

// Server is one redis-server process: a keyspace whose keys expire by
// the server's own wall clock, a fencing counter, and optionally a replica
// it ships every write to. Redlock uses it for each of its masters.
//
// What it knows of its place, it is given when it is built: redis mode's
// NewServer makes the two of Sentinel's pair, Redlock takes NewMaster's
// masters, which stand alone.
type Server struct {
	Role    sim.Role // RoleMaster or RoleReplica
	keys    keyspace
	counter int64
	Replica sim.NodeID
	durable keyspace // what AOF (fsync always) has on disk
	// fair is RFairLock's queues (fairlock.go), durableFair what the AOF
	// has of them.
	fair, durableFair fairQueues
	dCount            int64
	// replicaName is the node this server, when it starts as master,
	// ships its writes to (redis mode's first server, with a replica);
	// "" ships nowhere.
	replicaName string
	// master is the server this one replicates, as REPLICAOF named it
	// (INFO's master_host); None when it was built a replica of the first.
	master sim.NodeID
	// paired: the server is one of Sentinel's master/replica pair, so a
	// master that restarts while the other has taken over comes back as
	// its replica. Redlock's masters are not.
	paired bool
	// waitState is WAIT's: replication offsets and blocked WAITs (wait.go).
	waitState
	// latches are the unlock script's latches (latch.go).
	latches latches
}

// NewMaster is a master that stands alone: no replica, and restarted it
// is a master again. Redlock's masters are these.
func NewMaster() *Server { return &Server{Role: RoleMaster, Replica: sim.None, master: sim.None} }

// A Redis server's roles.
var (
	RoleMaster  = sim.NewRole("master")
	RoleReplica = sim.NewRole("replica")
)

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
func (r *Server) Clone() sim.Process {
	c := *r
	c.keys = r.keys.clone()
	c.durable = r.durable.clone()
	c.fair, c.durableFair = r.fair.clone(), r.durableFair.clone()
	c.waitState = r.waitState.clone()
	c.latches = r.latches.clone()
	return &c
}

// Start implements Process.
func (r *Server) Start(ctx sim.Ctx) {
	if r.Role == RoleMaster && r.replicaName != "" {
		r.Replica = ctx.Lookup(r.replicaName)
	}
	if r.paired && r.Role == RoleMaster {
		ctx.Primary(true)
	}
	for _, k := range r.keys {
		if r.Role == RoleMaster {
			ctx.Own(k.name, k.owner)
			ctx.AtWall(k.deadline, sim.Timer{Kind: timerExpire, Key: k.name})
		}
	}
}

// Crash implements Process: memory is gone, the AOF stays on disk. With
// appendfsync always every write (and every expiry's DEL) reached the AOF
// before its reply, so the AOF holds exactly the keyspace at the crash.
func (r *Server) Crash(ctx sim.Ctx) {
	if r.paired {
		ctx.Primary(false)
	}
	for _, k := range r.keys {
		if r.Role == RoleMaster {
			ctx.Disown(k.name, false)
		}
	}
	r.durable, r.dCount = r.keys, r.counter
	r.durableFair, r.fair = r.fair, nil
	r.keys = nil
	r.counter = 0
	r.waits, r.woffs = nil, nil // blocked clients' connections die with the process
	r.latches = nil
}

// Restart implements Process: with persist the AOF is replayed; keys whose
// deadline passed while down expire at once. A master that was failed over
// comes back as the new master's replica, empty.
func (r *Server) Restart(ctx sim.Ctx, persist bool) {
	if persist {
		r.keys = r.durable.clone()
		r.counter = r.dCount
		r.fair = r.durableFair.clone()
	}
	// With Sentinel processes a restarted master comes back a master, as
	// its own config file says, until Sentinel converts it
	// (+convert-to-slave, sentinel.go).
	if r.Role == RoleMaster && r.paired && Sentinels.Of(ctx.Scenario()) == 0 {
		for _, id := range ctx.Sim().Servers() {
			if o, ok := ctx.Sim().Nodes[id].Proc.(*Server); ok && id != ctx.ID() && o.Role == RoleMaster && o.Replica == sim.None {
				r.Role = RoleReplica
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
func (r *Server) live(ctx sim.Ctx, key string) (redisKey, bool) {
	kv, ok := r.keys.get(key)
	if !ok {
		return kv, false
	}
	if r.Role == RoleMaster && ctx.Wall() >= kv.deadline {
		r.expire(ctx, key)
		return kv, false
	}
	return kv, true
}

func (r *Server) expire(ctx sim.Ctx, key string) {
	kv, _ := r.keys.get(key)
	r.keys.del(key)
	r.disownKey(ctx, key, kv, true)
	ctx.Trace(traceExpire, key, "")
	r.ship(ctx, replGone(key))
}

// ship sends a write to the replica, right after applying it (async).
func (r *Server) ship(ctx sim.Ctx, e replEntry) {
	if r.Replica != sim.None && r.Role == RoleMaster {
		body := e
		body.Counter = r.counter
		r.replOff++
		body.Offset = r.replOff
		ctx.Send(r.Replica, sim.Msg{Op: OpRepl, Body: &body})
	}
}

func (r *Server) fullSync(ctx sim.Ctx) {
	for _, k := range r.keys {
		r.ship(ctx, replOf(k.name, k.redisKey))
	}
	r.ship(ctx, replGone(""))
}

func (r *Server) promote(ctx sim.Ctx) {
	r.Role = RoleMaster
	r.Replica = sim.None
	r.master = sim.None
	if r.paired {
		ctx.Primary(true)
	}
	ctx.TraceSaid(tracePromote, "", "replica promoted to master", sim.Say("note.redis.promoted"))
	for _, k := range r.keys.names() { // live may expire one
		if kv, ok := r.live(ctx, k); ok {
			ctx.Own(k, kv.owner)
			ctx.AtWall(kv.deadline, sim.Timer{Kind: timerExpire, Key: k})
		}
	}
}

// Receive implements Process: one command, one reply.
func (r *Server) Receive(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	switch m.Op {
	case OpRepl:
		r.applyRepl(ctx, m.Body.(*replEntry))
		return
	case OpPing: // whatever the role
		ctx.Send(from, sim.Msg{Op: OpPong})
		return
	case OpInfo:
		ctx.Send(from, infoReply{Role: r.Role, Master: r.master}.msg())
		return
	case OpReplicaOf:
		r.replicaOf(ctx, replicaOfOf(m).To)
		return
	case OpSync:
		if r.Role == RoleMaster {
			r.Replica = from
			r.fullSync(ctx)
		}
		return
	}
	if r.waitOp(ctx, from, m) {
		return
	}
	before := r.replOff
	if r.Role != RoleMaster {
		// A replica refuses writes at once: -READONLY You can't write
		// against a read only replica.
		if m.Op == OpSet || m.Op == OpCAD || m.Op == OpDel || m.Op == OpPExpire || m.Op == OpLock || m.Op == OpUnlock {
			ctx.Send(from, Reply{Op: OpReadOnly}.msg(m))
		}
		return
	}
	var reply Reply
	switch m.Op {
	case OpSet:
		if _, held := r.live(ctx, m.Key); held {
			reply.Op = OpNil
			break
		}
		px := pxOf(m)
		kv := redisKey{value: valueOf(m), owner: from, ttl: px, deadline: ctx.Wall() + px}
		r.keys.set(m.Key, kv)
		if fencedOf(m) { // the fencing script also INCRs the token counter
			r.counter++
		}
		reply.Op, reply.Token = OpOK, r.counter
		ctx.Own(m.Key, from)
		ctx.AtWall(kv.deadline, sim.Timer{Kind: timerExpire, Key: m.Key})
		r.ship(ctx, replOf(m.Key, kv))
	case OpLock:
		if rw, ok := rwLockOf(m); ok {
			r.rwLockScript(ctx, from, m, rw, &reply)
			break
		}
		if f, fair := fairTryOf(m); fair {
			r.fairLockScript(ctx, from, m, f, &reply)
			break
		}
		r.lockScript(ctx, from, m, &reply)
	case OpUnlock:
		if rw, ok := rwLockOf(m); ok {
			r.rwUnlockScript(ctx, m, rw, &reply)
			break
		}
		r.unlockScript(ctx, m, &reply)
	case OpCAD, OpDel:
		kv, held := r.live(ctx, m.Key)
		reply.Op = OpInt
		if held && (m.Op == OpDel || kv.value == valueOf(m)) {
			r.keys.del(m.Key)
			ctx.Disown(m.Key, false)
			reply.Int = 1
			r.ship(ctx, replGone(m.Key))
		}
	case OpPExpire:
		if rw, ok := rwLockOf(m); ok {
			r.rwRenewScript(ctx, m, rw, &reply)
			break
		}
		kv, held := r.live(ctx, m.Key)
		reply.Op = OpInt
		if held && kv.value == valueOf(m) {
			kv.ttl = pxOf(m)
			kv.deadline = ctx.Wall() + kv.ttl
			r.keys.set(m.Key, kv)
			ctx.AtWall(kv.deadline, sim.Timer{Kind: timerExpire, Key: m.Key})
			reply.Int = 1
			r.ship(ctx, replOf(m.Key, kv))
		}
	default:
		return
	}
	if r.replOff != before {
		r.wrote(from)
	}
	ctx.Send(from, reply.msg(m))
}

// replicaOf is REPLICAOF (Sentinel's order, redis/redis src/replication.c
// replicaofCommand at 7.0.15): NO ONE (to None) makes a replica a master
// that keeps its dataset; REPLICAOF host port makes a master a replica of
// that host: it drops its dataset and asks for a full sync, after which
// it holds the new master's keys and its own are gone.
func (r *Server) replicaOf(ctx sim.Ctx, to sim.NodeID) {
	s := ctx.Sim()
	if to == sim.None {
		if r.Role != RoleReplica {
			return
		}
		r.promote(ctx)
		s.Check.Fault(s.Now(), sim.FaultPromote, ctx.Name(), "")
		return
	}
	if r.Role == RoleReplica && r.master == to {
		return
	}
	if r.Role == RoleMaster {
		for _, k := range r.keys {
			ctx.Disown(k.name, false)
		}
		if ctx.Tracing() {
			ctx.TraceSaid(traceDemote, OpReplicaOf.String(), "REPLICAOF "+s.Nodes[to].Name+": a replica now, its dataset dropped for a full resync",
				sim.Say("note.redis.demoted", "node", s.Nodes[to].Name))
		}
		s.Check.Fault(s.Now(), sim.FaultDemote, ctx.Name(), "")
		ctx.Primary(false)
	}
	r.Role, r.Replica, r.master = RoleReplica, sim.None, to
	r.keys = nil
	ctx.Send(to, sim.Msg{Op: OpSync})
}

func (r *Server) applyRepl(ctx sim.Ctx, e *replEntry) {
	if r.Role != RoleReplica {
		return
	}
	r.counter = e.Counter
	r.applied = e.Offset
	if e.Key == "" {
		return
	}
	if e.State.value == "" {
		r.keys.del(e.Key)
	} else {
		r.keys.set(e.Key, e.State)
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
func (r *Server) lockScript(ctx sim.Ctx, from sim.NodeID, m *sim.Msg, reply *Reply) {
	kv, held := r.live(ctx, m.Key)
	if held && kv.value != valueOf(m) {
		reply.Op = OpNil
		return
	}
	if held {
		kv.holds++
		ctx.TraceSaid(traceReenter, OpLock.String(), fmt.Sprintf("the holder's own field: hold count %d", kv.holds),
			sim.Say("note.redis.reentered", "n", fmt.Sprint(kv.holds)))
	} else {
		kv = redisKey{value: valueOf(m), owner: from, holds: 1}
		if fencedOf(m) {
			r.counter++
		}
		ctx.Own(m.Key, from)
	}
	kv.ttl = pxOf(m)
	kv.deadline = ctx.Wall() + kv.ttl
	r.keys.set(m.Key, kv)
	reply.Op, reply.Token, reply.Int = OpOK, r.counter, int64(kv.holds)
	ctx.AtWall(kv.deadline, sim.Timer{Kind: timerExpire, Key: m.Key})
	r.ship(ctx, replOf(m.Key, kv))
}

// unlockScript is Redisson's unlock script (RedissonLock.unlockInnerAsync):
// a key without the caller's field answers nil (−1 here: not locked by
// this client); otherwise HINCRBY the field by −1, and while the count is
// above 0 PEXPIRE the key again and answer 0, or DEL it and answer 1.
//
// With a latch (Redisson 4.7.0's script, UnlockLatch) it first answers
// the latch's value if the latch is set, and sets the latch to its
// answer 0 or 1.
func (r *Server) unlockScript(ctx sim.Ctx, m *sim.Msg, reply *Reply) {
	reply.Op = OpInt
	latch := latchOf(m)
	if latch.ID != "" {
		if v, ok := r.latches.get(ctx, latch.ID); ok {
			reply.Int = v
			return
		}
	}
	kv, held := r.live(ctx, m.Key)
	if !held || kv.value != valueOf(m) {
		reply.Int = -1
		return
	}
	kv.holds--
	if latch.ID != "" {
		r.latches.set(ctx, latch, sim.Flag(kv.holds <= 0))
	}
	if kv.holds > 0 {
		kv.ttl = pxOf(m)
		kv.deadline = ctx.Wall() + kv.ttl
		r.keys.set(m.Key, kv)
		ctx.AtWall(kv.deadline, sim.Timer{Kind: timerExpire, Key: m.Key})
		r.ship(ctx, replOf(m.Key, kv))
		return
	}
	r.keys.del(m.Key)
	ctx.Disown(m.Key, false)
	reply.Int = 1
	r.ship(ctx, replGone(m.Key))
}

// Fire implements Process: active expiry when a key's deadline comes, and
// Sentinel's promotion order on a replica.
func (r *Server) Fire(ctx sim.Ctx, t sim.Timer) {
	if t.Kind == timerSentinel {
		sentinelPromote(ctx, sim.NodeID(t.Seq))
		return
	}
	if t.Kind == timerWait {
		r.waitTimedOut(ctx, t.Seq)
		return
	}
	if t.Kind != timerExpire || r.Role != RoleMaster {
		return
	}
	if kv, ok := r.keys.get(t.Key); ok && ctx.Wall() >= kv.deadline {
		r.expire(ctx, t.Key)
	}
}

func (r *Server) View(s *sim.Sim, id sim.NodeID) ServerView {
	v := ServerView{Node: int(id), Role: r.Role, Counter: r.counter}
	wall := s.Nodes[id].Clock.Wall(s.Now())
	names := r.keys.names()
	sort.Strings(names)
	for _, k := range names {
		kv, _ := r.keys.get(k)
		kvw := KeyView{Key: k, Value: kv.value, TTL: kv.ttl, Left: kv.deadline - wall, Holds: kv.holds}
		if kv.owner >= 0 && int(kv.owner) < len(s.Nodes) {
			kvw.Owner = s.Nodes[kv.owner].Name
		}
		if kv.rw != nil {
			kvw.Value, kvw.Owner, kvw.Holds = kv.rw.describe(s) // the read–write lock's hash (rwlock.go)
		}
		kvw.Expired = kvw.Left <= 0
		v.Keys = append(v.Keys, kvw)
	}
	return v
}
