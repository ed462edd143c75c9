package zookeeper

import (
	"fmt"
	"sort"

	"github.com/lockscope/lockscope/sim"
)

// startElection is QuorumPeer going LOOKING: stop serving and run
// FastLeaderElection.
func (s *zkServer) startElection(ctx sim.Ctx, why string, words sim.Words) {
	switch s.state {
	case zkLeading:
		s.disownLock(ctx)
		for i, p := range s.peers {
			if p.info {
				ctx.Send(s.node(i+1), connNotice(OpClose, 0))
			}
		}
	case zkFollowing:
		ctx.Send(s.node(s.leader), connNotice(OpClose, 0))
	}
	s.dropClients(ctx)
	s.enter(ctx, zkLooking, 0)
	ctx.TraceSaid(traceElection, zkLooking, why, words)
	s.round++
	s.vote = zkVote{leader: s.sid, zxid: s.lastLogged(), round: s.round, state: zkLooking, valid: true}
	s.recv = make([]zkVote, s.n)
	s.outOf = make([]zkVote, s.n)
	s.recv[s.sid-1] = s.vote
	s.notTimeout = FinalizeWait
	s.lastNotif = ctx.Mono()
	s.broadcastVote(ctx)
	ctx.After(s.notTimeout, sim.Timer{Kind: timerElection, Seq: s.era})
	s.checkVotes(ctx)
}

// voteMsg is this server's notification: its vote for a leader and that
// leader's zxid, with its own round and state.
func (s *zkServer) voteMsg() sim.Msg {
	n := zkVote{leader: s.vote.leader, zxid: s.vote.zxid, round: s.round, state: s.state, valid: true}
	return sim.Msg{Op: zkOpVote, Body: &n}
}

func (s *zkServer) broadcastVote(ctx sim.Ctx) {
	m := s.voteMsg() // one body for every peer
	for sid := 1; sid <= s.n; sid++ {
		if sid != s.sid {
			ctx.Send(s.node(sid), m)
		}
	}
}

// onVote is FastLeaderElection's handling of one notification.
func (s *zkServer) onVote(ctx sim.Ctx, p int, m *sim.Msg) {
	n := *m.Body.(*zkVote)
	if s.state != zkLooking {
		if n.state == zkLooking {
			ctx.Send(s.node(p), s.voteMsg()) // tell the looker who leads
		}
		return
	}
	if s.finalizing {
		s.finalizeAt = ctx.Mono() + FinalizeWait // the poll waits again
	}
	s.lastNotif = ctx.Mono()
	if n.state == zkLooking {
		mine := zkVote{leader: s.sid, zxid: s.lastLogged()}
		switch {
		case n.round > s.round:
			s.round = n.round
			s.recv = make([]zkVote, s.n)
			s.vote = mine
			if n.better(mine) {
				s.vote = zkVote{leader: n.leader, zxid: n.zxid}
			}
			s.vote.round, s.vote.valid = s.round, true
			s.recv[s.sid-1] = s.vote
			s.finalizing = false
			s.broadcastVote(ctx)
		case n.round < s.round:
			ctx.Send(s.node(p), s.voteMsg())
			return
		case n.better(s.vote):
			s.vote = zkVote{leader: n.leader, zxid: n.zxid, round: s.round, valid: true}
			s.recv[s.sid-1] = s.vote
			s.finalizing = false
			s.broadcastVote(ctx)
		}
		s.recv[p-1] = n
		s.checkVotes(ctx)
		return
	}
	// The sender already follows or leads: join if a quorum says the same
	// leader and that leader says it leads (termPredicate + checkLeader).
	s.outOf[p-1] = n
	count := 0
	for _, v := range s.outOf {
		if v.valid && v.leader == n.leader {
			count++
		}
	}
	l := s.outOf[n.leader-1]
	if n.leader != s.sid && count >= s.quorum() && l.valid && l.state == zkLeading {
		s.round = n.round
		s.vote = zkVote{leader: n.leader, zxid: n.zxid, round: n.round, valid: true}
		s.decide(ctx, n.leader)
	}
}

// checkVotes starts the finalize wait when a quorum shares this vote.
func (s *zkServer) checkVotes(ctx sim.Ctx) {
	count := 0
	for _, v := range s.recv {
		if v.valid && v.round == s.round && v.leader == s.vote.leader && v.zxid == s.vote.zxid {
			count++
		}
	}
	if count >= s.quorum() && !s.finalizing {
		s.finalizing = true
		s.finalizeAt = ctx.Mono() + FinalizeWait
		ctx.After(FinalizeWait, sim.Timer{Kind: timerFinalize, Seq: s.era})
	}
}

func (s *zkServer) decide(ctx sim.Ctx, leader int) {
	if leader == s.sid {
		s.becomeLeader(ctx)
	} else {
		s.becomeFollower(ctx, leader)
	}
}

func (s *zkServer) becomeLeader(ctx sim.Ctx) {
	s.enter(ctx, zkLeading, s.sid)
	ctx.TraceSaid(traceElection, zkLeading, fmt.Sprintf("elected, last zxid %#x", s.lastLogged()), sim.Say("note.zk.elected", "zxid", fmt.Sprintf("%#x", s.lastLogged())))
	s.prep = s.tree.clone()
	s.log.Range(s.commit, func(_ int, x zkTxn) bool {
		s.prep.apply(x)
		return true
	})
	s.acks = sim.Chunked[uint8]{}
	for range s.log.Len() {
		s.acks.Append(1 << (s.sid - 1))
	}
	s.armLeader(ctx)
	s.maybeDecideEpoch(ctx)
}

func (s *zkServer) becomeFollower(ctx sim.Ctx, leader int) {
	s.enter(ctx, zkFollowing, leader)
	ctx.TraceSaid(traceElection, zkFollowing, fmt.Sprintf("following zk-%d", leader), sim.Say("note.zk.following", "leader", fmt.Sprintf("zk-%d", leader)))
	s.sendFollowerInfo(ctx)
	ctx.After(TickTime/2, sim.Timer{Kind: timerTick, Seq: s.era})
	ctx.After(zkLeaderConnectRetry, sim.Timer{Kind: timerFollowerInfo, Seq: s.era})
}

// sendFollowerInfo opens (or retries opening) the connection to the
// leader: always message 1, with this role's era as connection id.
func (s *zkServer) sendFollowerInfo(ctx sim.Ctx) {
	s.lsent, s.lrcvd = 1, 0
	info := zkFollowerInfo{AcceptedEpoch: s.acceptedEpoch, LastZxid: s.lastLogged(), Conn: s.era}
	ctx.Send(s.node(s.leader), followerInfoMsg(&info))
}

func (s *zkServer) armLeader(ctx sim.Ctx) {
	ctx.After(TickTime/2, sim.Timer{Kind: timerTick, Seq: s.era})
}

func (s *zkServer) armExpirer(ctx sim.Ctx) {
	mono := ctx.Mono()
	ctx.After(zkRoundUp(mono)-mono, sim.Timer{Kind: timerExpire, Seq: s.era})
}

// maybeDecideEpoch is Leader.getEpochToPropose: once a quorum has reported
// its accepted epoch, the new epoch is one more than the largest.
func (s *zkServer) maybeDecideEpoch(ctx sim.Ctx) {
	if s.decided {
		return
	}
	count, epoch := 1, s.acceptedEpoch
	for _, p := range s.peers {
		if p.info {
			count++
			epoch = max(epoch, p.epoch)
		}
	}
	if count < s.quorum() {
		return
	}
	s.decided = true
	s.acceptedEpoch, s.currentEpoch, s.counter = epoch+1, epoch+1, 0
	for i, p := range s.peers {
		if p.info {
			s.syncPeer(ctx, i)
		}
	}
	s.maybeEstablish(ctx)
}

// syncPeer brings a follower's log in line with the leader's (TRUNC and
// DIFF), then sends NEWLEADER; from now on it gets every proposal.
func (s *zkServer) syncPeer(ctx sim.Ctx, i int) {
	p := &s.peers[i]
	from := -1
	for k := s.log.Len() - 1; k >= 0; k-- {
		if s.log.At(k).Zxid == p.lastZxid {
			from = k + 1
			break
		}
	}
	if p.lastZxid == 0 {
		from = 0
	}
	if from < 0 {
		// The follower has transactions the leader never saw: truncate it
		// to the last one both logs share.
		from = 0
		var z int64
		s.log.Range(0, func(k int, x zkTxn) bool {
			if x.Zxid < p.lastZxid {
				from, z = k+1, x.Zxid
			}
			return true
		})
		s.toPeer(ctx, i+1, zxidMsg(zkOpTrunc, z))
	}
	for k := from; k < s.log.Len(); k++ {
		op := zkOpDiff
		if s.established && k >= s.commit {
			op = zkOpProposal
		}
		s.toPeer(ctx, i+1, s.log.At(k).msg(op))
	}
	s.toPeer(ctx, i+1, epochMsg{Epoch: s.currentEpoch, Zxid: s.currentEpoch << 32}.msg(zkOpNewLeader))
	p.forwarding = true
}

// maybeEstablish: once a quorum has acknowledged NEWLEADER the leader
// commits its whole history and starts serving.
func (s *zkServer) maybeEstablish(ctx sim.Ctx) {
	if s.established || !s.decided {
		return
	}
	count := 1
	for _, p := range s.peers {
		if p.ackedNL {
			count++
		}
	}
	if count < s.quorum() {
		return
	}
	s.applyUpTo(ctx, s.log.Len())
	s.established, s.serving = true, true
	mono := ctx.Mono()
	for _, si := range s.tree.sessions {
		s.tracker = append(s.tracker, zkTracked{id: si.ID, timeout: si.Timeout, expireAt: zkRoundUp(mono + si.Timeout)})
	}
	for i, p := range s.peers {
		if p.ackedNL {
			s.toPeer(ctx, i+1, zxidMsg(zkOpUpToDate, s.lastCommitted()))
		}
	}
	s.updateOwner(ctx, false)
	s.armExpirer(ctx)
	ctx.TraceSaid(traceElection, "established", fmt.Sprintf("epoch %d, serving", s.currentEpoch), sim.Say("note.zk.established", "epoch", fmt.Sprint(s.currentEpoch)))
}

// Receive implements Process.
func (s *zkServer) Receive(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	if ctx.Sim().Nodes[from].Client {
		s.fromClient(ctx, from, m)
		return
	}
	p := s.sidOf(from)
	if p < 1 || p > s.n || p == s.sid {
		return
	}
	if m.Op == zkOpVote {
		s.onVote(ctx, p, m)
		return
	}
	switch s.state {
	case zkLeading:
		s.fromFollower(ctx, p, m)
	case zkFollowing:
		if p == s.leader {
			s.fromLeader(ctx, m)
		}
	}
}

func (s *zkServer) fromFollower(ctx sim.Ctx, p int, m *sim.Msg) {
	peer := &s.peers[p-1]
	switch m.Op {
	case OpClose:
		*peer = zkPeer{}
		return
	case zkOpFollowInfo:
		info := m.Body.(*zkFollowerInfo)
		if peer.info && peer.conn == info.Conn {
			return // a retry of a connection already accepted
		}
		*peer = zkPeer{info: true, conn: info.Conn, rcvd: 1, epoch: info.AcceptedEpoch, lastZxid: info.LastZxid, heard: ctx.Mono()}
		if s.decided {
			s.syncPeer(ctx, p-1)
		} else {
			s.maybeDecideEpoch(ctx)
		}
		return
	}
	if !peer.info {
		return
	}
	if positionOf(m) != peer.rcvd+1 {
		ctx.TraceSaid(sim.TraceDrop, m.Op.String(), fmt.Sprintf("message lost on the connection from zk-%d: reset", p), sim.Say("note.zk.connLost", "peer", fmt.Sprintf("zk-%d", p)))
		ctx.Send(s.node(p), connNotice(OpClose, 0))
		*peer = zkPeer{}
		return
	}
	peer.rcvd++
	peer.heard = ctx.Mono()
	switch m.Op {
	case zkOpAckNewLdr:
		if !peer.forwarding || epochOf(m).Epoch != s.currentEpoch {
			return
		}
		peer.ackedNL = true
		if s.established {
			s.toPeer(ctx, p, zxidMsg(zkOpUpToDate, s.lastCommitted()))
			return
		}
		s.maybeEstablish(ctx)
	case zkOpAck:
		if !peer.forwarding {
			return
		}
		for k := s.log.Len() - 1; k >= s.commit; k-- {
			if s.log.At(k).Zxid == zxidOf(m) {
				s.acks.Set(k, s.acks.At(k)|1<<(p-1))
				break
			}
		}
		if s.established {
			s.tryCommit(ctx)
		}
	case OpPing:
		if touched, ok := m.Body.(*zkTouched); ok {
			for _, id := range touched.Sessions {
				s.touch(ctx, id)
			}
		}
	case zkOpRequest:
		if !s.established || !peer.forwarding {
			return
		}
		req := zkTxnOf(m)
		x, code := s.prepare(req.Kind, req.Path, req.Session, req.Cxid, req.Timeout, req.Owner)
		if code != "" {
			s.toPeer(ctx, p, refusal{Session: req.Session, Xid: req.Cxid, Code: code}.msg())
			return
		}
		s.submit(ctx, x)
	case zkOpRevalidate:
		if !s.established {
			return
		}
		r := revalidationOf(m)
		live := s.sessionLive(r.Session)
		if live {
			s.touch(ctx, r.Session)
		}
		s.toPeer(ctx, p, revalidation{Session: r.Session, Live: live}.msg())
	}
}

func (s *zkServer) fromLeader(ctx sim.Ctx, m *sim.Msg) {
	s.heard = ctx.Mono()
	if m.Op == OpClose {
		s.startElection(ctx, fmt.Sprintf("connection to leader zk-%d reset", s.leader), sim.Say("note.zk.leaderReset", "leader", fmt.Sprintf("zk-%d", s.leader)))
		return
	}
	if positionOf(m) != s.lrcvd+1 {
		s.startElection(ctx, fmt.Sprintf("message lost on the connection to leader zk-%d: reset", s.leader), sim.Say("note.zk.leaderLost", "leader", fmt.Sprintf("zk-%d", s.leader)))
		return
	}
	s.lrcvd++
	s.synced = true
	switch m.Op {
	case zkOpTrunc:
		keep := 0
		for keep < s.log.Len() && s.log.At(keep).Zxid <= zxidOf(m) {
			keep++
		}
		s.log.Truncate(keep)
		if s.commit > keep {
			s.commit = 0
			s.tree = zkTree{}
			for s.commit < keep {
				s.tree.apply(s.log.At(s.commit))
				s.commit++
			}
		}
	case zkOpDiff:
		if x := zkTxnOf(m); x.Zxid > s.lastLogged() {
			s.log.Append(*x)
		}
	case zkOpNewLeader:
		e := epochOf(m).Epoch
		s.acceptedEpoch, s.currentEpoch = e, e
		s.toLeader(ctx, epochMsg{Epoch: e}.msg(zkOpAckNewLdr))
	case zkOpUpToDate:
		s.applyUpTo(ctx, s.indexAfter(zxidOf(m)))
		if !s.serving {
			s.serving = true
			ctx.TraceSaid(traceElection, "uptodate", fmt.Sprintf("following zk-%d, serving", s.leader), sim.Say("note.zk.uptodate", "leader", fmt.Sprintf("zk-%d", s.leader)))
		}
	case zkOpProposal:
		x := zkTxnOf(m)
		if x.Zxid > s.lastLogged() {
			s.log.Append(*x)
		}
		s.toLeader(ctx, zxidMsg(zkOpAck, x.Zxid))
	case zkOpCommit:
		s.applyUpTo(ctx, s.indexAfter(zxidOf(m)))
	case OpPing:
		ping := sim.Msg{Op: OpPing}
		if len(s.touched) > 0 { // most pings touch nothing: no body
			ping.Body = &zkTouched{Sessions: s.touched} // handed over: s.touched starts again
			s.touched = nil
		}
		s.toLeader(ctx, ping)
	case OpErr:
		r := refusalOf(m)
		if w, ok := s.takeWait(r.Session, r.Xid, ""); ok {
			s.reply(ctx, w.client, w.cnx, Reply{Op: OpErr, Xid: w.cxid, Code: r.Code})
			s.release(ctx, w.session)
		}
	case zkOpRevalidate:
		r := revalidationOf(m)
		w, ok := s.takeWait(r.Session, 0, zkRevalidate)
		if !ok {
			return
		}
		if r.Live {
			s.accept(ctx, w)
		} else {
			ctx.Send(w.client, connNotice(OpExpired, w.cnx))
		}
	}
}

// txnOf finds the transaction of zxid z in the log (zxids grow along it).
func (s *zkServer) txnOf(z int64) (zkTxn, bool) {
	i := sort.Search(s.log.Len(), func(i int) bool { return s.log.At(i).Zxid >= z })
	if i < s.log.Len() && s.log.At(i).Zxid == z {
		return s.log.At(i), true
	}
	return zkTxn{}, false
}
