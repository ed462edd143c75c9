package redis

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// Redisson's RReadWriteLock, with the readers option (redisson/redisson,
// tag redisson-4.7.0, redisson/src/main/java/org/redisson/
// RedissonReadLock.java, RedissonWriteLock.java, renewal/ReadLockTask.java):
// one hash, the lock's name, with a field "mode" ("read" or "write") and a
// field per holder, its lock name (id:threadId; a writer's with ":write"
// after it) counting its holds. A reader also SETs a timeout key
// {lock}:id:threadId:rwlock_timeout:N per hold, with the lease's PX.
//
//   - The read lock's script (RedissonReadLock.tryLockInnerAsync): no mode
//     → HSET mode read, HSET its field 1, SET its timeout key :1 PX lease,
//     PEXPIRE the hash: granted. Mode read (or mode write held by the
//     same thread's write lock) → HINCRBY its field, SET the timeout key
//     :count, PEXPIRE the hash to the larger of its PTTL and the lease:
//     granted. Otherwise answer the hash's PTTL. Nothing looks at waiting
//     writers: while the mode is read a reader joins at once, so readers
//     coming one after another keep a writer out as long as one of them
//     holds — the writer starves.
//   - The write lock's script (RedissonWriteLock.tryLockInnerAsync): no
//     mode → HSET mode write, HSET its field 1, PEXPIRE: granted; mode
//     write with its own field → HINCRBY (re-entry); otherwise the PTTL.
//   - The read unlock: no field of its own → nil. HINCRBY −1 (HDEL at 0),
//     DEL its timeout key. If other fields remain, the largest PTTL of
//     their timeout keys: above 0 → PEXPIRE the hash to it, answer 0; in
//     mode write → 0. Otherwise DEL the hash, PUBLISH the unlock, answer 1.
//   - The write unlock: its field −1; at 0 HDEL and DEL the hash (or set
//     mode read if a field is left: the same thread's read holds).
//   - Renewal: the read lock's watchdog (ReadLockTask) PEXPIREs each of its
//     timeout keys and the hash while its field exists; the write lock's
//     is RLock's (LockTask: PEXPIRE while its field exists). Every TTL/3.
//
// The waiters are woken by the unlock's PUBLISH on redisson_rwlock:{lock};
// the simulated waiter tries again on its retry delay instead (as RLock's
// does here, DIFFERENCES.md). The fencing counter, with fencing on, is
// INCRed at every grant, as the lock script's is at a fresh one. Only
// Redisson 4.7.0's client on a lone master is modelled: no replica, no
// fair lock, no re-entry with readers (Validate).

// rwHash is the read–write lock's hash: its mode and its holders' fields,
// in HSET order.
type rwHash struct {
	mode   string
	fields []rwField
}

// rwField is one holder's field of the hash.
type rwField struct {
	name  string
	count int
	owner sim.NodeID
}

// The hash's modes (its "mode" field).
const (
	rwModeRead  = "read"
	rwModeWrite = "write"
)

// field is the holder's field, or false.
func (h *rwHash) field(name string) (rwField, bool) {
	if h == nil {
		return rwField{}, false
	}
	for _, f := range h.fields {
		if f.name == name {
			return f, true
		}
	}
	return rwField{}, false
}

// with is a copy of h with f set (added, or replaced; count 0 removes it).
func (h *rwHash) with(mode string, f rwField) *rwHash {
	out := &rwHash{mode: mode}
	found := false
	if h != nil {
		for _, g := range h.fields {
			if g.name == f.name {
				found = true
				if f.count > 0 {
					out.fields = append(out.fields, f)
				}
				continue
			}
			out.fields = append(out.fields, g)
		}
	}
	if !found && f.count > 0 {
		out.fields = append(out.fields, f)
	}
	return out
}

// mode is the hash's mode a first holder of this lock sets.
func (rw RWLock) mode() string {
	if rw.Read {
		return rwModeRead
	}
	return rwModeWrite
}

// rwFieldName is the hash field of the caller: its lock name (value),
// with ":write" for the write lock (RedissonWriteLock.getLockName).
func rwFieldName(value string, rw RWLock) string {
	if rw.Read {
		return value
	}
	return value + ":write"
}

// rwTimeoutKey is a reader's timeout key for its n-th hold:
// {lock}:id:threadId:rwlock_timeout:n (getReadWriteTimeoutNamePrefix).
func rwTimeoutKey(lock, field string, n int) string {
	return "{" + lock + "}:" + field + ":rwlock_timeout:" + strconv.Itoa(n)
}

// rwOwnKey is the name under which the checker keeps a holder's field
// as the server's ownership: several readers own the hash at once.
func rwOwnKey(lock, field string) string { return lock + "#" + field }

// rwLockScript is the read or the write lock's tryLockInnerAsync.
func (r *Server) rwLockScript(ctx sim.Ctx, from sim.NodeID, m *sim.Msg, rw RWLock, reply *Reply) {
	kv, held := r.live(ctx, m.Key)
	var h *rwHash
	if held {
		h = kv.rw
	}
	name := rwFieldName(valueOf(m), rw)
	px := pxOf(m)
	f, own := h.field(name)
	switch {
	case h == nil:
		h = (&rwHash{}).with(rw.mode(), rwField{name: name, count: 1, owner: from})
		kv = redisKey{value: valueOf(m), owner: from, holds: 1, ttl: px, deadline: ctx.Wall() + px}
	case rw.Read && (h.mode == rwModeRead || h.mode == rwModeWrite && hasField(h, valueOf(m)+":write")):
		h = h.with(h.mode, rwField{name: name, count: f.count + 1, owner: from})
		kv.ttl = max(kv.deadline-ctx.Wall(), px)
		kv.deadline = ctx.Wall() + kv.ttl
	case !rw.Read && h.mode == rwModeWrite && own:
		h = h.with(h.mode, rwField{name: name, count: f.count + 1, owner: from})
		kv.ttl = kv.deadline - ctx.Wall() + px // currentExpire + ARGV[1]
		kv.deadline = ctx.Wall() + kv.ttl
	default:
		reply.Op = OpNil
		return
	}
	f, _ = h.field(name)
	kv.rw, kv.holds = h, f.count
	if fencedOf(m) {
		r.counter++
	}
	r.keys.set(m.Key, kv)
	if f.count == 1 {
		ctx.Own(rwOwnKey(m.Key, name), from)
	}
	if rw.Read {
		tk := rwTimeoutKey(m.Key, name, f.count)
		r.keys.set(tk, redisKey{value: "1", owner: sim.None, ttl: px, deadline: ctx.Wall() + px})
		ctx.AtWall(ctx.Wall()+px, sim.Timer{Kind: timerExpire, Key: tk})
	}
	if ctx.Tracing() {
		ctx.TraceSaid(traceRWLock, OpLock.String(), fmt.Sprintf("mode %s: field %s = %d", h.mode, name, f.count),
			sim.Say("note.redis.rwLocked", "mode", h.mode, "field", name, "n", strconv.Itoa(f.count)))
	}
	reply.Op, reply.Token, reply.Int = OpOK, r.counter, int64(f.count)
	ctx.AtWall(kv.deadline, sim.Timer{Kind: timerExpire, Key: m.Key})
}

// hasField reports whether h has a field called name.
func hasField(h *rwHash, name string) bool {
	_, ok := h.field(name)
	return ok
}

// rwUnlockScript is the read or the write lock's unlockInnerAsync: 1
// when the hash is deleted, 0 when it stays, −1 for nil.
func (r *Server) rwUnlockScript(ctx sim.Ctx, m *sim.Msg, rw RWLock, reply *Reply) {
	reply.Op, reply.Int = OpInt, -1
	kv, held := r.live(ctx, m.Key)
	if !held || kv.rw == nil {
		return
	}
	h := kv.rw
	name := rwFieldName(valueOf(m), rw)
	f, own := h.field(name)
	if !own || !rw.Read && h.mode != rwModeWrite {
		return
	}
	f.count--
	h = h.with(h.mode, f)
	if f.count == 0 {
		ctx.Disown(rwOwnKey(m.Key, name), false)
	}
	if rw.Read {
		r.keys.del(rwTimeoutKey(m.Key, name, f.count+1))
	}
	if !rw.Read && f.count > 0 { // the write lock's re-entry: PEXPIRE internalLockLeaseTime
		kv.ttl = pxOf(m)
		kv.deadline = ctx.Wall() + kv.ttl
		r.rwKeep(ctx, m.Key, kv, h, f)
		reply.Int = 0
		return
	}
	if len(h.fields) > 0 {
		if !rw.Read { // the write lock's last hold, the same thread's reads left
			r.rwKeep(ctx, m.Key, kv, h.with(rwModeRead, rwField{}), f)
			reply.Int = 1
			return
		}
		if left := r.rwLongestTimeout(ctx, m.Key, h); left > 0 {
			kv.ttl = left
			kv.deadline = ctx.Wall() + left
			r.rwKeep(ctx, m.Key, kv, h, f)
			reply.Int = 0
			return
		}
		if h.mode == rwModeWrite {
			r.rwKeep(ctx, m.Key, kv, h, f)
			reply.Int = 0
			return
		}
	}
	r.keys.del(m.Key)
	r.disownKey(ctx, m.Key, redisKey{rw: h}, false)
	reply.Int = 1
}

// rwKeep writes the hash back, f the caller's field as it is now.
func (r *Server) rwKeep(ctx sim.Ctx, key string, kv redisKey, h *rwHash, f rwField) {
	kv.rw, kv.holds = h, f.count
	r.keys.set(key, kv)
	ctx.AtWall(kv.deadline, sim.Timer{Kind: timerExpire, Key: key})
}

// rwLongestTimeout is the read unlock's maxRemainTime: the largest PTTL
// of the remaining fields' timeout keys (−2 for one that is gone).
func (r *Server) rwLongestTimeout(ctx sim.Ctx, key string, h *rwHash) time.Duration {
	longest := time.Duration(-3)
	for _, f := range h.fields {
		for i := f.count; i >= 1; i-- {
			left := time.Duration(-2)
			if tk, ok := r.live(ctx, rwTimeoutKey(key, f.name, i)); ok {
				left = tk.deadline - ctx.Wall()
			}
			longest = max(longest, left)
		}
	}
	return longest
}

// rwRenewScript is the watchdog's renewal: the read lock's ReadLockTask
// (PEXPIRE each timeout key of its field and the hash) or the write
// lock's LockTask (PEXPIRE the hash), while its field exists.
func (r *Server) rwRenewScript(ctx sim.Ctx, m *sim.Msg, rw RWLock, reply *Reply) {
	reply.Op = OpInt
	kv, held := r.live(ctx, m.Key)
	name := rwFieldName(valueOf(m), rw)
	f, own := kv.rw.field(name)
	if !held || !own {
		return
	}
	px := pxOf(m)
	if rw.Read {
		for i := f.count; i >= 1; i-- {
			tk := rwTimeoutKey(m.Key, name, i)
			if t, ok := r.live(ctx, tk); ok {
				t.ttl, t.deadline = px, ctx.Wall()+px
				r.keys.set(tk, t)
				ctx.AtWall(t.deadline, sim.Timer{Kind: timerExpire, Key: tk})
			}
		}
	}
	kv.ttl, kv.deadline = px, ctx.Wall()+px
	r.keys.set(m.Key, kv)
	ctx.AtWall(kv.deadline, sim.Timer{Kind: timerExpire, Key: m.Key})
	reply.Int = 1
}

// disownKey tells the checker that key, as kv was, is no longer owned:
// the read–write lock's holders one by one, any other key as itself.
func (r *Server) disownKey(ctx sim.Ctx, key string, kv redisKey, expired bool) {
	if kv.rw == nil {
		ctx.Disown(key, expired)
		return
	}
	for _, f := range kv.rw.fields {
		ctx.Disown(rwOwnKey(key, f.name), expired)
	}
}

// The client's side.

// reader reports whether this client takes the read lock: with readers
// N, client-1…client-N do.
func (c *redisClient) reader(ctx sim.Ctx) bool { return c.idx < Readers.Of(ctx.Scenario()) }

// rwCommand is m as the read or the write lock's, with readers.
func (c *redisClient) rwCommand(ctx sim.Ctx, m sim.Msg) sim.Msg {
	if !Readers.IsOn(ctx.Scenario()) {
		return m
	}
	return WithRWLock(m, RWLock{Read: c.reader(ctx)})
}

// grant is the lock script's OK: a read hold for a reader.
func (c *redisClient) grant(ctx sim.Ctx, token int64) {
	if Readers.IsOn(ctx.Scenario()) && c.reader(ctx) {
		c.GrantShared(ctx, token, 0)
		return
	}
	c.Grant(ctx, token, 0)
}

// checkReadersWith: the read–write lock is modelled for Redisson 4.7.0's
// client on a lone master, without re-entry or the plain DEL.
func checkReadersWith(sc *sim.Scenario) error {
	if !Readers.IsOn(sc) {
		return nil
	}
	if Client.Of(sc) != ClientRedisson || Replica.Of(sc) || Reenter.IsOn(sc) || PlainDel.Of(sc) {
		return sim.FieldErr("readers", sim.Say("field.redisReadersWith"),
			"RReadWriteLock is simulated with Redisson 4.7.0's client (client redisson) on a lone master: no replica, reenter or plainDel")
	}
	return nil
}

// describe is the hash as the keys view shows it: its fields ("mode
// read · id:1 1 · …"), its holders and the hold count when one holds.
func (h *rwHash) describe(s *sim.Sim) (value, owners string, holds int) {
	parts := []string{"mode " + h.mode}
	var names []string
	for _, f := range h.fields {
		parts = append(parts, f.name+" "+strconv.Itoa(f.count))
		if f.owner >= 0 && int(f.owner) < len(s.Nodes) {
			names = append(names, s.Nodes[f.owner].Name)
		}
	}
	if len(h.fields) == 1 {
		holds = h.fields[0].count
	}
	return strings.Join(parts, " · "), strings.Join(names, ", "), holds
}

// rwUnlocked says what a read–write lock's unlock answered: 0, the hash
// stays for the other holders' time; 1, it is deleted; false for another
// lock's answer (or nil, which RLock's words say).
func (c *redisClient) rwUnlocked(ctx sim.Ctx, req sim.Msg, r Reply) bool {
	if _, ok := rwLockOf(&req); !ok || r.Int < 0 || !ctx.Tracing() {
		return false
	}
	if r.Int == 0 {
		ctx.TraceSaid(traceRelease, req.Op.String(), "returned 0: other holders' fields remain; the hash lives on for their time",
			sim.Say("note.redis.rwKept"))
		return true
	}
	ctx.TraceSaid(traceRelease, req.Op.String(), "returned 1: the last field is gone, the hash deleted", sim.Say("note.redis.rwDeleted"))
	return true
}
