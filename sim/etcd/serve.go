package etcd

import (
	"fmt"
	"sort"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// ---------------------------------------------------------------------------
// Serving clients.

// Receive implements Process.
func (s *Server) Receive(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	if i := s.memberIndex(from); i >= 0 {
		s.step(ctx, from, i, m)
		return
	}
	s.serve(ctx, from, m)
}

func (s *Server) serve(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	if m.Op == OpRST {
		s.dropClient(ctx, from)
		return
	}
	if i := sort.Search(len(s.conns), func(i int) bool { return s.conns[i] >= from }); i == len(s.conns) || s.conns[i] != from {
		s.conns = append(s.conns, sim.None)
		copy(s.conns[i+1:], s.conns[i:])
		s.conns[i] = from
	}
	switch m.Op {
	case OpGrant:
		id := s.nextID()
		s.submit(ctx, from, m.Seq, etcdEntry{Type: entGrant, Lease: id, N: int64(LeaseCallOf(m).TTL / time.Second), Client: from})
	case OpTxn:
		switch t := txnOf(m); t.Kind {
		case TxnWrite:
			s.submit(ctx, from, m.Seq, etcdEntry{Type: entWrite, Key: t.Key, N: t.Rev, Client: from})
		case TxnPut:
			s.submit(ctx, from, m.Seq, etcdEntry{Type: entPut, Key: t.Key, N: t.Rev, Val: t.Val, Client: from, Routine: t.Routine})
		default:
			s.submit(ctx, from, m.Seq, etcdEntry{Type: entLock, Key: t.Key, Lease: t.Lease, Client: from})
		}
	case OpDelete:
		s.submit(ctx, from, m.Seq, etcdEntry{Type: entDelete, Key: m.Key, Client: from})
	case OpRevoke:
		s.submit(ctx, from, m.Seq, etcdEntry{Type: entRevoke, Lease: LeaseCallOf(m).Lease, Client: from})
	case OpRange:
		req := s.nextID()
		r := rangeOf(m)
		s.pending[req] = etcdPending{Client: from, Seq: m.Seq, Op: OpRange, Key: r.Key, Max: r.MaxRev, Last: r.Kind == RangeLast, Value: r.Kind == RangeValue, Routine: r.Routine,
			Timeout: ctx.After(etcdReqTimeout, sim.Timer{Kind: timerRequest, Seq: req})}
		if s.lead == sim.None {
			// A linearizable read waits for its ReadIndex, sent again every
			// 500 ms, until a leader change ends it with "leader changed"
			// (newLeader) or the request times out (release-3.4
			// etcdserver/v3_server.go, requestCurrentIndex); raft drops a
			// ReadIndex while there is no leader.
			return
		}
		if s.isLeader() {
			s.leaderRead(ctx, s.self, req)
		} else {
			ctx.Send(s.lead, readIndex{Req: req}.msg(raftReadIndex))
		}
	case OpKeepAlive:
		// The lease stream requires a leader (clientv3 lease.go:
		// WithRequireLeader): newStreamInterceptor refuses to open one on a
		// member without a leader (First: the stream's first keepalive).
		// On a stream already open, LeaseRenew (etcdserver/v3_server.go)
		// waits for a leader (waitLeader: a look every election timeout)
		// within the request timeout, then forwards the renewal.
		ka := LeaseCallOf(m)
		if s.lead == sim.None && ka.First {
			ctx.Send(from, LeaseCall{Op: OpKeepAliveErr, Lease: ka.Lease, Err: errNoLeader}.Msg())
			return
		}
		s.addKeepAliveStream(from)
		req := s.nextID()
		s.pending[req] = etcdPending{Client: from, Seq: m.Seq, Op: OpKeepAlive, Lease: ka.Lease,
			Timeout: ctx.After(etcdReqTimeout, sim.Timer{Kind: timerRequest, Seq: req})}
		if s.lead == sim.None {
			p := s.pending[req]
			p.WaitLeader = true
			s.pending[req] = p
			ctx.After(ElectionTimeout, sim.Timer{Kind: timerWaitLeader, Seq: req})
			return
		}
		s.forwardRenew(ctx, req, ka.Lease)
	case OpWatch:
		req := watchOf(m)
		w := etcdWatcher{Client: from, ID: req.ID, Key: req.Key, Prefix: req.Prefix, Start: req.Start}
		ctx.Send(from, watchNote(OpWatchCreated, w.ID))
		// The history is in revision order: start at the watch's revision.
		first := sort.Search(s.history.Len(), func(i int) bool { return s.history.At(i).Rev >= w.Start })
		s.history.Range(first, func(_ int, ev etcdEvent) bool {
			if w.matches(ev.Key) {
				s.deliver(ctx, &w, ev)
			}
			return true
		})
		s.watchers = append(s.watchers, w)
	case OpWatchCancel:
		s.dropWatch(from, watchIDOf(m))
	}
}

// forget drops a request the member has answered or given up on, with
// its timeout: left queued, the timeout would fire for nothing.
func (s *Server) forget(ctx sim.Ctx, req int64) {
	ctx.Cancel(s.pending[req].Timeout)
	delete(s.pending, req)
}

// submit registers a client request and proposes it.
// submit proposes a client's write and waits for it to apply, within the
// request timeout. On a member without a leader the write waits for one:
// raft's node.run takes no proposal while there is no leader (etcd-io/etcd
// release-3.4 raft/node.go: propc = nil), so Propose blocks until a leader
// is known or the request times out ("request timed out", which clientv3
// resends for a repeatable call such as LeaseGrant). Measured on a real 3.4
// member in TestEtcdGrantOnALeaderlessMember.
func (s *Server) submit(ctx sim.Ctx, client sim.NodeID, seq int64, e etcdEntry) {
	req := s.nextID()
	e.Origin, e.Req = s.self, req
	p := etcdPending{Client: client, Seq: seq,
		Timeout: ctx.After(etcdReqTimeout, sim.Timer{Kind: timerRequest, Seq: req})}
	if s.lead == sim.None {
		p.Held, p.Proposal = true, e
		s.pending[req] = p
		return
	}
	s.pending[req] = p
	s.propose(ctx, e)
}

func (s *Server) dropWatch(client sim.NodeID, id int64) {
	keep := s.watchers[:0]
	for _, w := range s.watchers {
		if w.Client != client || w.ID != id {
			keep = append(keep, w)
		}
	}
	s.watchers = keep
}

func (s *Server) dropClient(ctx sim.Ctx, client sim.NodeID) {
	keep := s.watchers[:0]
	for _, w := range s.watchers {
		if w.Client != client {
			keep = append(keep, w)
		}
	}
	s.watchers = keep
	for _, id := range s.pendingIDs() {
		if s.pending[id].Client == client {
			s.forget(ctx, id)
		}
	}
	for i, c := range s.conns {
		if c == client {
			s.conns = append(s.conns[:i], s.conns[i+1:]...)
			break
		}
	}
	for i, c := range s.kaStreams {
		if c == client {
			s.kaStreams = append(s.kaStreams[:i], s.kaStreams[i+1:]...)
			break
		}
	}
}

// Fire implements Process.
func (s *Server) Fire(ctx sim.Ctx, t sim.Timer) {
	switch t.Kind {
	case timerTick:
		s.tick(ctx)
	case timerLessor:
		s.revokeExpired(ctx)
		ctx.Tick(lessorTick, sim.Timer{Kind: timerLessor})
	case timerWaitLeader:
		p, ok := s.pending[t.Seq]
		if !ok || !p.WaitLeader {
			return
		}
		if s.lead == sim.None {
			ctx.After(ElectionTimeout, sim.Timer{Kind: timerWaitLeader, Seq: t.Seq})
			return
		}
		p.WaitLeader = false
		s.pending[t.Seq] = p
		s.forwardRenew(ctx, t.Seq, p.Lease)
	case timerRequest:
		p, ok := s.pending[t.Seq]
		if !ok {
			return
		}
		delete(s.pending, t.Seq)
		if p.Op == OpKeepAlive {
			why := errTimeout
			if p.WaitLeader {
				why = errNoLeader // waitLeader gave up: ErrNoLeader
			}
			ctx.Send(p.Client, LeaseCall{Op: OpKeepAliveErr, Err: why}.Msg())
			return
		}
		reply := failure(errTimeout)
		reply.Seq = p.Seq
		ctx.Send(p.Client, reply)
	}
}

// FireIdle implements Idler: a raft tick that only counts (idleTick), and
// the lessor's look on a member that is not the primary lessor or finds
// no lease due for a revoke (revokeExpired would propose nothing).
func (s *Server) FireIdle(ctx sim.Ctx, t sim.Timer) bool {
	switch t.Kind {
	case timerTick:
		return s.idleTick()
	case timerLessor:
		return !s.revokeDue(ctx)
	}
	return false
}

// IdleAhead implements LazyIdler: the raft ticks before the election
// timeout or (without a leader) the next look for one. The lessor's looks
// are not skipped: a follower has one every 500 ms, and telling whether it
// may act after every event would cost more than its FireIdle.
func (s *Server) IdleAhead(t *sim.Timer) int {
	if t.Kind == timerTick {
		return s.ticksIdleAhead()
	}
	return 0
}

// SkipIdle implements LazyIdler.
func (s *Server) SkipIdle(t *sim.Timer, n int) {
	if t.Kind == timerTick {
		s.skipIdleTicks(n)
	}
}

func (s *Server) detail() (string, sim.Words) {
	d := fmt.Sprintf("term %d · index %d · commit %d · rev %d", s.term, s.lastIndex(), s.commit, s.rev)
	key := "detail.etcd.server"
	if s.pre {
		d += " · pre-vote"
		key = "detail.etcd.serverPreVote"
	}
	return d, sim.Say(key, "term", fmt.Sprint(s.term), "index", fmt.Sprint(s.lastIndex()),
		"commit", fmt.Sprint(s.commit), "rev", fmt.Sprint(s.rev))
}
