package etcd

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// ---------------------------------------------------------------------------
// The state machine.

func (s *Server) apply(ctx sim.Ctx) {
	for s.applied < s.commit {
		s.applied++
		s.applyEntry(ctx, s.log.At(int(s.applied-1)))
	}
	s.serveReads(ctx)
}

func (s *Server) reply(ctx sim.Ctx, e etcdEntry, m sim.Msg) {
	if e.Origin != s.self {
		return
	}
	p, ok := s.pending[e.Req]
	if !ok {
		return
	}
	s.forget(ctx, e.Req)
	m.Seq = p.Seq
	s.routine = e.Routine
	ctx.Send(p.Client, m)
	s.routine = false
}

func (s *Server) applyEntry(ctx sim.Ctx, e etcdEntry) {
	switch e.Type {
	case entNoop:
		if s.isLeader() && e.Term == s.term && !s.replay {
			s.promote(ctx)
			reads := s.pendingReads
			s.pendingReads = nil
			for _, r := range reads {
				s.leaderRead(ctx, r.From, r.Req)
			}
		}
	case entGrant:
		if _, dup := s.leases[e.Lease]; dup {
			s.reply(ctx, e, failure(errLeaseExists))
			return
		}
		ttl := grantedLease(time.Duration(e.N) * time.Second)
		l := etcdLease{ID: e.Lease, TTL: ttl, Client: e.Client}
		if s.primary {
			l.Expiry = ctx.Mono() + ttl
		}
		s.putLease(e.Lease, l)
		s.reply(ctx, e, LeaseCall{Op: OpGrantResp, Lease: e.Lease, TTL: ttl}.Msg())
	case entLock:
		kv, had := s.kv[e.Key]
		if !had {
			l, lok := s.leases[e.Lease]
			if !lok {
				s.reply(ctx, e, failure(errLeaseNotFound))
				return
			}
			s.rev++
			kv = etcdKV{CreateRev: s.rev, ModRev: s.rev, Lease: e.Lease, Client: e.Client}
			s.kv[e.Key] = kv
			l.Keys = insertSorted(l.Keys, e.Key)
			s.putLease(e.Lease, l)
			s.event(ctx, OpEventPut, e.Key)
		}
		ownerKey, owner, _ := s.firstCreate()
		s.reply(ctx, e, TxnResp{Kind: TxnLock, Succeeded: !had, Rev: kv.CreateRev, OwnerKey: ownerKey, OwnerRev: owner.CreateRev}.msg())
		s.recordOwner(ctx, false)
	case entDelete:
		n := int64(0)
		if _, ok := s.kv[e.Key]; ok {
			s.rev++
			s.deleteKey(ctx, e.Key)
			n = 1
		}
		s.reply(ctx, e, DeleteResp{Deleted: n, Rev: s.rev}.msg())
		s.recordOwner(ctx, false)
	case entWrite:
		kv, ok := s.kv[e.Key]
		ok = ok && kv.CreateRev == e.N
		s.recordWrite(ctx, e, ok)
		if !ok {
			s.reply(ctx, e, TxnResp{Kind: TxnWrite, Rev: s.rev}.msg())
			return
		}
		s.rev++
		st, had := s.kv[StorageKey]
		if !had {
			st.CreateRev = s.rev
		}
		st.ModRev, st.Client = s.rev, e.Client
		s.kv[StorageKey] = st
		s.event(ctx, OpEventPut, StorageKey)
		s.reply(ctx, e, TxnResp{Kind: TxnWrite, Succeeded: true, Rev: s.rev}.msg())
	case entPut:
		s.applyPut(ctx, e)
	case entRevoke:
		l, ok := s.leases[e.Lease]
		if !ok {
			s.reply(ctx, e, failure(errLeaseNotFound))
			return
		}
		if len(l.Keys) > 0 {
			s.rev++
			for _, k := range l.Keys {
				s.deleteKey(ctx, k)
			}
		}
		delete(s.leases, e.Lease)
		why, how := "revoked by its session", "revoked"
		if e.N == 1 {
			why, how = "expired by the leader's clock", "expired"
		}
		if s.isLeader() && ctx.Tracing() {
			lease := fmt.Sprintf("%x", e.Lease)
			note := fmt.Sprintf("lease %x %s: no key attached", e.Lease, why)
			words := sim.Say("note.etcd."+how+"NoKey", "lease", lease)
			if len(l.Keys) > 0 {
				note = fmt.Sprintf("lease %x %s: %s deleted at revision %d", e.Lease, why, strings.Join(l.Keys, ", "), s.rev)
				words = sim.Say("note.etcd."+how+"Keys", "lease", lease, "keys", strings.Join(l.Keys, ", "), "rev", fmt.Sprint(s.rev))
			}
			s.trace(ctx, traceLease, entRevoke, note, words)
		}
		var keep []etcdRenewWait
		for _, w := range s.renewWait {
			if w.Lease == e.Lease && !w.Promote {
				s.respondRenew(ctx, w.From, w.Req, w.Lease, 0, "")
				continue
			}
			keep = append(keep, w)
		}
		s.renewWait = keep
		s.reply(ctx, e, LeaseCall{Op: OpRevokeResp, Lease: e.Lease}.Msg())
		s.recordOwner(ctx, e.N == 1)
	}
}

// applyPut is a TxnPut: Txn(If(ModRevision(key) = N)).Then(Put(key,
// value)), where N 0 is the key's absence (clientv3's Compare of a missing
// key's ModRevision is 0: the apiserver's Create compares it so). It
// answers whether it put and the revision after it, or the key's mod
// revision when the compare failed (the Else branch's Get).
func (s *Server) applyPut(ctx sim.Ctx, e etcdEntry) {
	kv, had := s.kv[e.Key]
	if kv.ModRev != e.N || had != (e.N != 0) {
		s.reply(ctx, e, TxnResp{Kind: TxnPut, Rev: kv.ModRev}.msg())
		return
	}
	s.rev++
	if !had {
		kv.CreateRev = s.rev
	}
	kv.ModRev, kv.Client, kv.Val = s.rev, e.Client, e.Val
	s.kv[e.Key] = kv
	s.event(ctx, OpEventPut, e.Key)
	s.reply(ctx, e, TxnResp{Kind: TxnPut, Succeeded: true, Rev: s.rev}.msg())
}

// recordWrite tells the checker the outcome of a guarded write at the
// instant etcd applies it: with fencing the storage is etcd, so this is
// when the write takes effect, however late the client hears of it. The
// member that received the request records it, once; a member that lost
// its data and re-applies its old entries does not.
func (s *Server) recordWrite(ctx sim.Ctx, e etcdEntry, accepted bool) {
	if e.Origin != s.self || s.replay || e.Req <= s.wipedReq || e.Client < 0 {
		return
	}
	ctx.Sim().Check.GuardedWrite(ctx.Now(), ctx.ID(), e.Client, e.N, accepted)
}

func insertSorted(xs []string, x string) []string {
	i := sort.SearchStrings(xs, x)
	if i < len(xs) && xs[i] == x {
		return xs
	}
	xs = append(xs, "")
	copy(xs[i+1:], xs[i:])
	xs[i] = x
	return xs
}

// deleteKey removes a key at the current revision and detaches its lease.
func (s *Server) deleteKey(ctx sim.Ctx, key string) {
	kv := s.kv[key]
	delete(s.kv, key)
	if l, ok := s.leases[kv.Lease]; ok {
		i := sort.SearchStrings(l.Keys, key)
		if i < len(l.Keys) && l.Keys[i] == key {
			l.Keys = append(l.Keys[:i:i], l.Keys[i+1:]...)
			s.putLease(kv.Lease, l)
		}
	}
	s.event(ctx, OpEventDelete, key)
}

// event records a change in the history and notifies the watchers.
func (s *Server) event(ctx sim.Ctx, typ sim.Op, key string) {
	ev := etcdEvent{Rev: s.rev, Type: typ, Key: key}
	s.history.Append(ev)
	for i := range s.watchers {
		if s.watchers[i].matches(key) && ev.Rev >= s.watchers[i].Start {
			s.deliver(ctx, &s.watchers[i], ev)
		}
	}
}

// deliver sends a watch event; while a partition cuts the link the event
// waits in the stream, as TCP keeps unacknowledged data, and is flushed
// when the link is back.
func (s *Server) deliver(ctx sim.Ctx, w *etcdWatcher, ev etcdEvent) {
	if len(w.Queue) > 0 || ctx.Sim().Cut(s.self, w.Client) {
		w.Queue = append(w.Queue, ev)
		ctx.WakeTick() // the next tick flushes it
		return
	}
	ctx.Send(w.Client, ev.msg(w.ID))
}

func (s *Server) flushWatchers(ctx sim.Ctx) {
	for i := range s.watchers {
		w := &s.watchers[i]
		if len(w.Queue) == 0 || ctx.Sim().Cut(s.self, w.Client) {
			continue
		}
		for _, ev := range w.Queue {
			ctx.Send(w.Client, ev.msg(w.ID))
		}
		w.Queue = nil
	}
}

// firstCreate is Get(prefix, WithFirstCreate()): the owner of the lock.
func (s *Server) firstCreate() (string, etcdKV, bool) {
	var best string
	var bkv etcdKV
	for k, kv := range s.kv {
		if strings.HasPrefix(k, Prefix) && (best == "" || kv.CreateRev < bkv.CreateRev) {
			best, bkv = k, kv
		}
	}
	return best, bkv, best != ""
}

// lastCreateUpTo is Get(prefix, WithLastCreate(), WithMaxCreateRev(max)):
// the latest key under prefix created before the waiter's own (the
// Mutex's prefix, or RWMutex's, rwlock.go).
func (s *Server) lastCreateUpTo(prefix string, maxRev int64) (string, etcdKV, bool) {
	var best string
	var bkv etcdKV
	for k, kv := range s.kv {
		if strings.HasPrefix(k, prefix) && kv.CreateRev <= maxRev && (best == "" || kv.CreateRev > bkv.CreateRev) {
			best, bkv = k, kv
		}
	}
	return best, bkv, best != ""
}

// recordOwner tells the checker who owns the lock as the promoted leader
// sees it: the client whose key has the lowest create revision.
func (s *Server) recordOwner(ctx sim.Ctx, expired bool) {
	if !s.isLeader() || !s.primary || s.replay {
		return
	}
	if Readers.IsOn(ctx.Scenario()) {
		s.recordHolders(ctx, expired) // RWMutex: readers hold together (rwlock.go)
		return
	}
	key, kv, ok := s.firstCreate()
	if key == s.ownedKey {
		return
	}
	if s.ownedKey != "" {
		ctx.Disown(Prefix, expired)
	}
	if ok {
		ctx.Own(Prefix, kv.Client)
	}
	s.ownedKey = key
}
