package etcd

import (
	"math/bits"
	"slices"

	"github.com/lockscope/lockscope/sim"
)

// ---------------------------------------------------------------------------
// Linearizable reads: ReadIndex confirmed by a quorum of heartbeats.

func (s *Server) leaderRead(ctx sim.Ctx, from sim.NodeID, req int64) {
	r := etcdRead{From: from, Req: req}
	if s.termAt(s.commit) != s.term {
		s.pendingReads = append(s.pendingReads, r)
		return
	}
	s.readCtx++
	r.Ctx, r.Index = s.readCtx, s.commit
	r.Acks = 1 << uint(s.memberIndex(s.self))
	s.reads = append(s.reads, r)
	if s.quorum() == 1 {
		s.releaseReads(ctx, r.Ctx)
		return
	}
	s.bcastHeartbeat(ctx, r.Ctx)
}

func (s *Server) ackRead(ctx sim.Ctx, i int, readCtx int64) {
	for j := range s.reads {
		if s.reads[j].Ctx == readCtx {
			s.reads[j].Acks |= 1 << uint(i)
			if bits.OnesCount8(s.reads[j].Acks) >= s.quorum() {
				s.releaseReads(ctx, readCtx)
			}
			return
		}
	}
}

// releaseReads answers every read up to the confirmed context.
func (s *Server) releaseReads(ctx sim.Ctx, upTo int64) {
	var keep []etcdRead
	for _, r := range s.reads {
		if r.Ctx > upTo {
			keep = append(keep, r)
			continue
		}
		if r.From == s.self {
			if p, ok := s.pending[r.Req]; ok {
				p.ReadIndex = r.Index
				s.pending[r.Req] = p
			}
		} else {
			ctx.Send(r.From, readIndex{Req: r.Req, Index: r.Index}.msg(raftReadIndexResp))
		}
	}
	s.reads = keep
	s.serveReads(ctx)
}

// serveReads answers the reads whose read index this member has applied.
func (s *Server) serveReads(ctx sim.Ctx) {
	for _, req := range s.pendingIDs() {
		p := s.pending[req]
		if p.Op != OpRange || p.ReadIndex == 0 || p.ReadIndex > s.applied {
			continue
		}
		s.forget(ctx, req)
		r := RangeResp{Rev: s.rev}
		if p.Last {
			if k, kv, ok := s.lastCreateUpTo(p.Key, p.Max); ok {
				r.Key, r.CreateRev = k, kv.CreateRev
			}
		} else if kv, ok := s.kv[p.Key]; ok {
			r.Key, r.CreateRev = p.Key, kv.CreateRev
			if p.Value {
				r.ModRev, r.Val = kv.ModRev, kv.Val
			}
		}
		reply := r.msg()
		reply.Seq = p.Seq
		s.routine = p.Routine
		ctx.Send(p.Client, reply)
		s.routine = false
	}
}

func (s *Server) pendingIDs() []int64 {
	ids := make([]int64, 0, len(s.pending))
	for id := range s.pending {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
