package etcd

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// ---------------------------------------------------------------------------
// Raft.

// reset is raft's reset(term): a new term forgets the vote; any role
// change drops the leader, the votes and pending reads.
func (s *Server) reset(ctx sim.Ctx, term int64) {
	if term != s.term {
		s.term, s.vote = term, sim.None
	}
	s.lead = sim.None
	s.electionElapsed = 0
	s.reads, s.pendingReads = nil, nil
	s.resetProgress(ctx)
}

func (s *Server) becomeFollower(ctx sim.Ctx, term int64, lead sim.NodeID) {
	was, prev := s.isLeader(), s.lead
	s.reset(ctx, term)
	s.role, s.pre, s.lead = RoleFollower, false, lead
	if was {
		s.demote(ctx)
	}
	if lead != sim.None && lead != prev {
		s.newLeader(ctx)
	}
}

func (s *Server) campaign(ctx sim.Ctx, pre bool) {
	if s.isLeader() {
		s.demote(ctx)
	}
	if pre {
		s.role, s.pre, s.lead = RoleCandidate, true, sim.None
		s.votes = make([]int8, len(s.members))
		s.trace(ctx, traceRaft, raftPreVote.String(), fmt.Sprintf("no leader heard for %v: pre-vote for term %d", time.Duration(s.randomized)*Heartbeat, s.term+1),
			sim.Say("note.etcd.preVote", "for", (time.Duration(s.randomized)*Heartbeat).String(), "term", strconv.FormatUint(uint64(s.term+1), 10)))
	} else {
		s.reset(ctx, s.term+1)
		s.vote = s.self
		s.role, s.pre = RoleCandidate, false
		s.trace(ctx, traceRaft, raftVote.String(), fmt.Sprintf("campaign for term %d", s.term), sim.Say("note.etcd.campaign", "term", fmt.Sprint(s.term)))
	}
	if s.poll(ctx, s.self, true) {
		return
	}
	op, term := raftVote, s.term
	if pre {
		op, term = raftPreVote, s.term+1
	}
	for _, m := range s.members {
		if m != s.self {
			ctx.Send(m, voteReq{Term: term, LastIndex: s.lastIndex(), LastTerm: s.lastTerm()}.msg(op))
		}
	}
}

// poll records a (pre-)vote and acts on the result; true when decided.
func (s *Server) poll(ctx sim.Ctx, from sim.NodeID, granted bool) bool {
	i := s.memberIndex(from)
	if i < 0 || s.votes[i] != 0 {
		return false
	}
	s.votes[i] = -1
	if granted {
		s.votes[i] = 1
	}
	yes, no := 0, 0
	for _, v := range s.votes {
		switch v {
		case 1:
			yes++
		case -1:
			no++
		}
	}
	switch {
	case yes >= s.quorum():
		if s.pre {
			s.campaign(ctx, false)
		} else {
			s.becomeLeader(ctx)
		}
		return true
	case no > len(s.members)-s.quorum():
		s.becomeFollower(ctx, s.term, sim.None)
		return true
	}
	return false
}

func (s *Server) becomeLeader(ctx sim.Ctx) {
	s.reset(ctx, s.term)
	s.role, s.pre, s.lead = RoleLeader, false, s.self
	s.trace(ctx, traceRaft, "leader", fmt.Sprintf("elected leader of term %d with log up to index %d", s.term, s.lastIndex()),
		sim.Say("note.etcd.elected", "term", fmt.Sprint(s.term), "index", fmt.Sprint(s.lastIndex())))
	s.appendEntry(ctx, etcdEntry{Type: entNoop, Client: sim.None, Origin: sim.None})
	s.newLeader(ctx)
}

// newLeader runs when this member learns of a new leader. A keepalive it
// forwarded may have died with the old one: LeaseRenew keeps retrying
// until it reaches a leader, so it goes again. A linearizable read not yet
// confirmed fails with "leader changed" (the client retries it).
func (s *Server) newLeader(ctx sim.Ctx) {
	for _, id := range s.pendingIDs() {
		p := s.pending[id]
		switch {
		case p.Op == OpRange && p.ReadIndex == 0:
			s.forget(ctx, id)
			reply := failure(errLeaderChanged)
			reply.Seq = p.Seq
			ctx.Send(p.Client, reply)
		case p.WaitLeader:
			// waitLeader looks again only at its next election timeout
			// ("waitlead"), not the moment a leader appears.
		case p.Held:
			// Propose takes it as soon as node.run has a leader again.
			p.Held = false
			s.pending[id] = p
			s.propose(ctx, p.Proposal)
		case p.Op == OpKeepAlive && s.isLeader():
			s.leaderRenew(ctx, s.self, id, p.Lease)
		case p.Op == OpKeepAlive:
			ctx.Send(s.lead, renewal{Req: id, Lease: p.Lease}.msg(leaseRenew))
		}
	}
}

// inLease is check-quorum's leader lease: a member that heard from a leader
// within the election timeout ignores (pre-)vote requests.
func (s *Server) inLease() bool {
	return s.lead != sim.None && s.electionElapsed < electionTicks
}

func (s *Server) upToDate(index, term int64) bool {
	return term > s.lastTerm() || (term == s.lastTerm() && index >= s.lastIndex())
}

func (s *Server) tick(ctx sim.Ctx) {
	s.electionElapsed++
	if s.isLeader() {
		if s.electionElapsed >= electionTicks {
			s.electionElapsed = 0
			act := 0
			for i, m := range s.members {
				if m == s.self || s.active[i] {
					act++
				}
				s.active[i] = false
			}
			if act < s.quorum() {
				s.trace(ctx, traceRaft, "leader", "check-quorum: lost contact with a majority, stepping down", sim.Say("note.etcd.stepDown"))
				s.becomeFollower(ctx, s.term, sim.None)
			}
		}
		if s.isLeader() {
			s.bcastHeartbeat(ctx, s.lastReadCtx())
		}
	} else if s.electionElapsed >= s.randomized {
		s.electionElapsed = 0
		// Without pre-vote a member cut off from the leader campaigns for
		// real, raising its term each election timeout; when it rejoins,
		// its answer to the leader's heartbeat carries that term and the
		// leader steps down (raft.go: a message of a higher term makes a
		// member a follower of that term).
		s.campaign(ctx, PreVote.Of(ctx.Scenario()))
	}
	s.flushWatchers(ctx)
	s.ticks++
	if s.ticks%electionTicks == 0 {
		s.monitorLeader(ctx)
	}
	ctx.Tick(Heartbeat, sim.Timer{Kind: timerTick})
}

// idleTick is tick when it would only count: a follower (or candidate)
// short of its election timeout, with no watch event held for a client and
// no look for a missing leader due (monitorLeader with a leader only
// clears its count). Most ticks of a run are a follower's that a
// heartbeat keeps from ever reaching the timeout. It reports false,
// changing nothing, when tick would do more.
func (s *Server) idleTick() bool {
	if s.isLeader() || s.electionElapsed+1 >= s.randomized || (s.ticks+1)%electionTicks == 0 && s.lead == sim.None {
		return false
	}
	if s.watchQueued() {
		return false // flushWatchers may send them
	}
	s.skipIdleTicks(1)
	return true
}

// watchQueued reports whether a watcher holds events for its client.
func (s *Server) watchQueued() bool {
	for i := range s.watchers {
		if len(s.watchers[i].Queue) > 0 {
			return true
		}
	}
	return false
}

// ticksIdleAhead is how many of the next ticks idleTick would take, if
// nothing reached the member meanwhile.
func (s *Server) ticksIdleAhead() int {
	if s.isLeader() || s.watchQueued() {
		return 0
	}
	n := s.randomized - s.electionElapsed - 1
	if s.lead == sim.None {
		n = min(n, electionTicks-s.ticks%electionTicks-1)
	}
	return max(n, 0)
}

// skipIdleTicks makes the changes of n idle ticks in a row.
func (s *Server) skipIdleTicks(n int) {
	looks := s.ticks / electionTicks
	s.electionElapsed += n
	s.ticks += n
	if s.ticks/electionTicks > looks {
		s.noLeaderChecks = 0 // monitorLeader, with a leader
	}
}

// maxNoLeaderChecks is v3rpc's maxNoLeaderCnt: a member cancels the streams
// that require a leader after this many election timeouts without one.
const maxNoLeaderChecks = 3

// monitorLeader is v3rpc's (etcd-io/etcd
// server/etcdserver/api/v3rpc/interceptor.go, release-3.4 and 3.5): every
// election timeout it looks for a leader; after maxNoLeaderChecks looks in
// a row without one it cancels every stream that requires a leader with
// "no leader". Here those are the lease keepalive streams; a keepalive the
// member holds in waitLeader ends with them.
func (s *Server) monitorLeader(ctx sim.Ctx) {
	if s.lead != sim.None {
		s.noLeaderChecks = 0
		return
	}
	s.noLeaderChecks++
	if s.noLeaderChecks < maxNoLeaderChecks || len(s.kaStreams) == 0 {
		return
	}
	for _, c := range s.kaStreams {
		ctx.Send(c, LeaseCall{Op: OpKeepAliveErr, Err: errNoLeader}.Msg())
		for _, id := range s.pendingIDs() {
			if p := s.pending[id]; p.Client == c && p.Op == OpKeepAlive {
				s.forget(ctx, id)
			}
		}
	}
	s.kaStreams = s.kaStreams[:0]
}

// addKeepAliveStream notes a client's keepalive stream on this member.
func (s *Server) addKeepAliveStream(c sim.NodeID) {
	for _, k := range s.kaStreams {
		if k == c {
			return
		}
	}
	s.kaStreams = append(s.kaStreams, c)
}

func (s *Server) lastReadCtx() int64 {
	if n := len(s.reads); n > 0 {
		return s.reads[n-1].Ctx
	}
	return 0
}

func (s *Server) bcastHeartbeat(ctx sim.Ctx, readCtx int64) {
	for i, m := range s.members {
		if m != s.self {
			ctx.Send(m, heartbeat{Term: s.term, Commit: min(s.match[i], s.commit), Context: readCtx}.msg(raftHeartbeat))
		}
	}
}

// appendEntry is the leader's MsgProp: append, replicate, maybe commit.
func (s *Server) appendEntry(ctx sim.Ctx, e etcdEntry) {
	e.Term = s.term
	s.log.Append(e)
	s.match[s.memberIndex(s.self)] = s.lastIndex()
	s.bcastAppend(ctx)
	s.maybeCommit(ctx)
}

// propose hands an entry to raft: the leader appends it, a follower
// forwards it to the leader it knows; false when there is none.
func (s *Server) propose(ctx sim.Ctx, e etcdEntry) bool {
	switch {
	case s.isLeader():
		s.appendEntry(ctx, e)
	case s.lead != sim.None && s.lead != s.self:
		ctx.Send(s.lead, sim.Msg{Op: raftProp, Body: &e})
	default:
		return false
	}
	return true
}

func (s *Server) bcastAppend(ctx sim.Ctx) {
	for i, m := range s.members {
		if m != s.self {
			s.sendAppend(ctx, i)
		}
	}
}

func (s *Server) sendAppend(ctx sim.Ctx, i int) {
	next := max(s.next[i], 1)
	prev := next - 1
	ctx.Send(s.members[i], sim.Msg{Op: raftApp, Body: newAppend(&s.log, s.term, prev, s.termAt(prev), s.commit)})
	s.next[i] = s.lastIndex() + 1
}

// maybeCommit advances the commit index to the highest entry of this term
// a majority has appended, applies it and tells the followers at once.
func (s *Server) maybeCommit(ctx sim.Ctx) {
	var buf [8]int64
	ms := append(buf[:0], s.match...)
	slices.SortFunc(ms, func(a, b int64) int { return cmp.Compare(b, a) })
	n := ms[s.quorum()-1]
	if n <= s.commit || s.termAt(n) != s.term {
		return
	}
	s.commit = n
	s.apply(ctx)
	s.bcastAppend(ctx)
}

// step handles message m from another member, from (s.members[peer]).
func (s *Server) step(ctx sim.Ctx, from sim.NodeID, peer int, m *sim.Msg) {
	// A heartbeat and its answer of this member's term, over half of a
	// run's messages, go to their handling first: the checks below let
	// them through (no op of theirs before the term's, and neither a
	// newer nor an older term), here at the cost of two comparisons.
	switch m.Op {
	case raftHeartbeat:
		if termOf(m) == s.term {
			s.fromLeader(ctx, from, s.term, m)
			return
		}
	case raftHeartbeatResp:
		if termOf(m) == s.term {
			s.heartbeatResp(ctx, peer, m)
			return
		}
	}
	switch m.Op {
	case raftProp:
		s.propose(ctx, *m.Body.(*etcdEntry))
		return
	case raftReadIndex:
		if s.isLeader() {
			s.leaderRead(ctx, from, readIndexOf(m).Req)
		}
		return
	case raftReadIndexResp:
		r := readIndexOf(m)
		if p, ok := s.pending[r.Req]; ok {
			p.ReadIndex = r.Index
			s.pending[r.Req] = p
			s.serveReads(ctx)
		}
		return
	case leaseRenew:
		r := renewalOf(m)
		s.leaderRenew(ctx, from, r.Req, r.Lease)
		return
	case leaseRenewResp:
		s.answerKeepAlive(ctx, renewalOf(m))
		return
	}
	term := termOf(m)
	switch {
	case term > s.term:
		if (m.Op == raftVote || m.Op == raftPreVote) && s.inLease() {
			return
		}
		switch {
		case m.Op == raftPreVote:
		case m.Op == raftPreVoteResp && voteRespOf(m).Granted:
		case m.Op == raftApp || m.Op == raftHeartbeat:
			s.becomeFollower(ctx, term, from)
		default:
			s.becomeFollower(ctx, term, sim.None)
		}
	case term < s.term:
		switch m.Op {
		case raftApp, raftHeartbeat:
			ctx.Send(from, appendResp{Term: s.term}.msg())
		case raftPreVote:
			ctx.Send(from, voteResp{Term: s.term}.msg(raftPreVoteResp))
		}
		return
	}
	switch m.Op {
	case raftPreVote, raftVote:
		v := voteReqOf(m)
		canVote := s.vote == from || (s.vote == sim.None && s.lead == sim.None) || (m.Op == raftPreVote && v.Term > s.term)
		resp := raftVoteResp
		if m.Op == raftPreVote {
			resp = raftPreVoteResp
		}
		if canVote && s.upToDate(v.LastIndex, v.LastTerm) {
			ctx.Send(from, voteResp{Term: v.Term, Granted: true}.msg(resp))
			if m.Op == raftVote {
				s.electionElapsed = 0
				s.vote = from
			}
		} else {
			ctx.Send(from, voteResp{Term: s.term}.msg(resp))
		}
	case raftPreVoteResp:
		if s.role == RoleCandidate && s.pre {
			s.poll(ctx, from, voteRespOf(m).Granted)
		}
	case raftVoteResp:
		if s.role == RoleCandidate && !s.pre {
			s.poll(ctx, from, voteRespOf(m).Granted)
		}
	case raftApp, raftHeartbeat:
		s.fromLeader(ctx, from, term, m)
	case raftAppResp:
		if s.isLeader() {
			s.handleAppResp(ctx, from, appendRespOf(m))
		}
	case raftHeartbeatResp:
		s.heartbeatResp(ctx, peer, m)
	}
}

// fromLeader handles a MsgApp or MsgHeartbeat of term, this member's.
func (s *Server) fromLeader(ctx sim.Ctx, from sim.NodeID, term int64, m *sim.Msg) {
	if s.role == RoleCandidate {
		s.becomeFollower(ctx, term, from)
	}
	if s.isLeader() {
		return
	}
	s.electionElapsed = 0
	if s.lead != from {
		s.lead = from
		s.newLeader(ctx)
	}
	if m.Op == raftApp {
		s.handleAppend(ctx, from, m.Body.(*appendEntries))
		return
	}
	h := heartbeatOf(m)
	if c := min(h.Commit, s.lastIndex()); c > s.commit {
		s.commit = c
		s.apply(ctx)
	}
	ctx.Send(from, heartbeat{Term: s.term, Context: h.Context}.msg(raftHeartbeatResp))
}

// heartbeatResp handles a MsgHeartbeatResp of this member's term from
// s.members[i].
func (s *Server) heartbeatResp(ctx sim.Ctx, i int, m *sim.Msg) {
	if !s.isLeader() {
		return
	}
	s.active[i] = true
	if s.match[i] < s.lastIndex() {
		s.sendAppend(ctx, i)
	}
	if h := heartbeatOf(m); h.Context > 0 {
		s.ackRead(ctx, i, h.Context)
	}
}

func (s *Server) handleAppend(ctx sim.Ctx, from sim.NodeID, m *appendEntries) {
	prev := m.PrevIndex
	if prev < s.commit {
		ctx.Send(from, appendResp{Term: s.term, Index: s.commit}.msg())
		return
	}
	if prev > s.lastIndex() || s.termAt(prev) != m.PrevTerm {
		ctx.Send(from, appendResp{Term: s.term, Index: prev, Reject: true, Hint: min(prev, s.lastIndex())}.msg())
		return
	}
	for i, e := range m.Entries {
		idx := prev + 1 + int64(i)
		if idx <= s.lastIndex() {
			if s.termAt(idx) == e.Term {
				continue
			}
			s.log.Truncate(int(idx - 1))
		}
		s.log.Append(e)
	}
	lastNew := prev + int64(len(m.Entries))
	if c := min(m.Commit, lastNew); c > s.commit {
		s.commit = c
		s.apply(ctx)
	}
	ctx.Send(from, appendResp{Term: s.term, Index: lastNew}.msg())
}

func (s *Server) handleAppResp(ctx sim.Ctx, from sim.NodeID, m appendResp) {
	i := s.memberIndex(from)
	s.active[i] = true
	if m.Reject {
		switch {
		case m.Hint < s.match[i]:
			// The follower lost entries it had acknowledged: its data
			// directory is gone. Raft would panic; as after a member
			// remove and re-add, it gets the whole log again.
			s.match[i] = m.Hint
		case m.Index <= s.match[i]:
			return // stale
		}
		s.next[i] = max(min(m.Index, m.Hint+1), s.match[i]+1)
		s.sendAppend(ctx, i)
		return
	}
	if m.Index > s.match[i] {
		s.match[i] = m.Index
	}
	s.next[i] = max(s.next[i], m.Index+1)
	s.maybeCommit(ctx)
}
