package etcd

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// ---------------------------------------------------------------------------
// The lessor.

// promote makes this member's lessor primary once it has applied its first
// entry as leader: every lease is refreshed to election timeout + TTL,
// since the new leader cannot know when the old one last renewed it.
func (s *Server) promote(ctx sim.Ctx) {
	s.primary = true
	now := ctx.Mono()
	for _, id := range s.leaseIDs() {
		l := s.leases[id]
		l.Expiry, l.RetryAt = now+ElectionTimeout+l.TTL, 0
		s.putLease(id, l)
	}
	if len(s.leases) > 0 {
		s.trace(ctx, traceLease, "promote", fmt.Sprintf("lessor promoted: %d lease(s) extended to %v + TTL", len(s.leases), ElectionTimeout),
			sim.Say("note.etcd.promoted", "n", strconv.Itoa(len(s.leases)), "timeout", ElectionTimeout.String()))
	}
	var keep []etcdRenewWait
	waits := s.renewWait
	s.renewWait = nil
	for _, w := range waits {
		if w.Promote {
			s.leaderRenew(ctx, w.From, w.Req, w.Lease)
		} else {
			keep = append(keep, w)
		}
	}
	s.renewWait = append(keep, s.renewWait...)
	s.recordOwner(ctx, false)
}

// demote ends primacy: leases stop expiring here, held renewals fail.
func (s *Server) demote(ctx sim.Ctx) {
	s.primary = false
	waits := s.renewWait
	s.renewWait = nil
	for _, w := range waits {
		s.respondRenew(ctx, w.From, w.Req, w.Lease, 0, errNotPrimary)
	}
	s.disownAll(ctx)
}

func (s *Server) leaseIDs() []int64 {
	ids := make([]int64, 0, len(s.leases))
	for id := range s.leases {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b int64) int {
		return cmp.Or(cmp.Compare(s.leases[a].Expiry, s.leases[b].Expiry), cmp.Compare(a, b))
	})
	return ids
}

// revokeExpired is the lessor's runLoop: the leader proposes a revoke for
// every lease past its expiry by its own clock.
func (s *Server) revokeExpired(ctx sim.Ctx) {
	if !s.revokeDue(ctx) {
		return
	}
	now := ctx.Mono()
	for _, id := range s.leaseIDs() {
		l := s.leases[id]
		if !l.revokeDue(now) {
			continue
		}
		l.RetryAt = now + expiredLeaseRetry
		s.putLease(id, l)
		if ctx.Tracing() {
			s.trace(ctx, traceLease, "expire", fmt.Sprintf("lease %x expired by the leader's clock: proposing its revoke", id),
				sim.Say("note.etcd.leaseExpired", "lease", fmt.Sprintf("%x", id)))
		}
		s.appendEntry(ctx, etcdEntry{Type: entRevoke, Lease: id, N: 1, Client: l.Client, Origin: s.self})
	}
}

// revokeDue reports whether revokeExpired would propose a revoke now. It
// is asked at every lessor tick (FireIdle); before leaseDue no lease can
// be due, so it looks at the leases only from then on, and a look that
// finds none due sets leaseDue to the earliest lease's dueAt. etcd's
// lessor does not scan its map either: its leaseExpiredNotifier keeps the
// leases in a heap by expiry and expireExists peeks at the top
// (server/lease/lease_queue.go, lessor.go), a lease past its expiry put
// back at now + the retry interval, as RetryAt does here.
func (s *Server) revokeDue(ctx sim.Ctx) bool {
	if !s.isLeader() || !s.primary {
		return false
	}
	now := ctx.Mono()
	if now < s.leaseDue {
		return false
	}
	next := time.Duration(math.MaxInt64)
	for _, l := range s.leases {
		if l.revokeDue(now) {
			return true
		}
		next = min(next, l.dueAt())
	}
	s.leaseDue = next
	return false
}

// putLease writes lease l as id and keeps leaseDue at or before its
// dueAt: every write of a lease goes through here, so that no lease is due
// before leaseDue.
func (s *Server) putLease(id int64, l etcdLease) {
	s.leases[id] = l
	s.leaseDue = min(s.leaseDue, l.dueAt())
}

// revokeDue reports whether the primary lessor proposes the lease's revoke
// at now on its clock: it has expired, and no revoke was proposed within
// the retry interval.
func (l *etcdLease) revokeDue(now time.Duration) bool {
	return now >= l.dueAt()
}

// dueAt is the first instant of the lessor's clock at which revokeDue
// holds: the later of its expiry and its retry time.
func (l *etcdLease) dueAt() time.Duration { return max(l.Expiry, l.RetryAt) }

// leaderRenew is Lessor.Renew on the leader; from is the member that got
// the keepalive.
// forwardRenew renews a lease on this member, the leader, or asks the
// leader to ("renewals don't go through raft; forward to leader manually").
func (s *Server) forwardRenew(ctx sim.Ctx, req, id int64) {
	if s.isLeader() {
		s.leaderRenew(ctx, s.self, req, id)
		return
	}
	ctx.Send(s.lead, renewal{Req: req, Lease: id}.msg(leaseRenew))
}

func (s *Server) leaderRenew(ctx sim.Ctx, from sim.NodeID, req, id int64) {
	if !s.isLeader() {
		s.respondRenew(ctx, from, req, id, 0, errNotPrimary)
		return
	}
	if !s.primary {
		s.renewWait = append(s.renewWait, etcdRenewWait{From: from, Req: req, Lease: id, Promote: true})
		return
	}
	l, ok := s.leases[id]
	if !ok {
		s.respondRenew(ctx, from, req, id, 0, "")
		return
	}
	now := ctx.Mono()
	if now >= l.Expiry {
		// An expired lease is being revoked: the renewal waits for it.
		s.renewWait = append(s.renewWait, etcdRenewWait{From: from, Req: req, Lease: id})
		return
	}
	l.Expiry = now + l.TTL
	s.putLease(id, l)
	s.respondRenew(ctx, from, req, id, l.TTL, "")
}

func (s *Server) respondRenew(ctx sim.Ctx, from sim.NodeID, req, id int64, ttl time.Duration, err etcdErr) {
	r := renewal{Req: req, Lease: id, TTL: ttl, Err: err}
	if from == s.self {
		s.answerKeepAlive(ctx, r)
		return
	}
	ctx.Send(from, r.msg(leaseRenewResp))
}

// answerKeepAlive answers the keepalive of request r.Req with the
// leader's renewal.
func (s *Server) answerKeepAlive(ctx sim.Ctx, r renewal) {
	p, ok := s.pending[r.Req]
	if !ok {
		return
	}
	s.forget(ctx, r.Req)
	if r.Err != "" {
		ctx.Send(p.Client, LeaseCall{Op: OpKeepAliveErr, Lease: r.Lease, Err: r.Err}.Msg())
		return
	}
	ctx.Send(p.Client, LeaseCall{Op: OpKeepAliveResp, Lease: r.Lease, TTL: r.TTL}.Msg())
}
