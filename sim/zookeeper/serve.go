package zookeeper

import (
	"fmt"
	"strings"
	"time"

	"github.com/lockscope/lockscope/sim"
)

func (s *zkServer) fromClient(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	if m.Op == OpConnect {
		s.onConnect(ctx, from, m)
		return
	}
	i, ok := s.conn(from, connOf(m))
	if !ok || !s.serving {
		ctx.Send(from, connNotice(OpClose, connOf(m))) // no such connection
		return
	}
	if pos := positionOf(m); pos != 0 {
		// A sender that numbers its messages (every zkClient does; a
		// scripted conformance client does not) must not skip one.
		if pos != s.conns[i].rcvd+1 {
			ctx.TraceSaid(sim.TraceDrop, m.Op.String(), "message lost on the connection from "+ctx.Sim().Nodes[from].Name+": reset", sim.Say("note.zk.connLost", "peer", ctx.Sim().Nodes[from].Name))
			ctx.Send(from, connNotice(OpClose, connOf(m)))
			s.dropConn(from)
			return
		}
		s.conns[i].rcvd++
	}
	c := s.conns[i]
	if s.state == zkLeading {
		s.touch(ctx, c.session)
	} else {
		s.noteTouch(c.session)
	}
	req := requestOf(m)
	switch m.Op {
	case OpCloseSession:
		// PrepRequestProcessor turns it into a closeSession transaction
		// that deletes the session's ephemerals; once committed, the
		// connection is closed (FinalRequestProcessor: sendCloseSession).
		s.write(ctx, zkWait{client: from, cnx: c.cnx, session: c.session, cxid: req.Xid, kind: zkTxnCloseSession}, "", "")
	case OpCreate, OpDelete:
		kind := zkTxnCreate
		if m.Op == OpDelete {
			kind = zkTxnDelete
		}
		name := strings.TrimPrefix(req.Path, LockPath+"/")
		s.write(ctx, zkWait{client: from, cnx: c.cnx, session: c.session, cxid: req.Xid, kind: kind}, name, "")
	default:
		if _, pending := s.hasWrite(c.session); pending {
			s.queued = append(s.queued, zkQueued{client: from, cnx: c.cnx, session: c.session, order: s.nextOrder(), m: *m})
			return
		}
		s.serveRead(ctx, from, c.cnx, m)
	}
}

// serveRead answers a ping or a read from this server's own data.
func (s *zkServer) serveRead(ctx sim.Ctx, from sim.NodeID, cnx int64, m *sim.Msg) {
	req := requestOf(m)
	switch req.Op {
	case OpPing:
		s.reply(ctx, from, cnx, Reply{Op: OpPong})
	case OpGetChildren:
		names := make([]string, len(s.tree.nodes))
		for k, n := range s.tree.nodes {
			names[k] = n.Name
		}
		if req.Watch {
			s.watches = append(s.watches, zkWatch{client: from, cnx: cnx, path: LockPath, child: true})
		}
		s.reply(ctx, from, cnx, Reply{Op: OpOK, Xid: req.Xid, Children: &Children{Names: names}})
	case OpGetData:
		name := strings.TrimPrefix(req.Path, LockPath+"/")
		if s.tree.find(name) < 0 {
			s.reply(ctx, from, cnx, Reply{Op: OpErr, Xid: req.Xid, Code: zkErrNoNode})
			return
		}
		if req.Watch {
			s.watches = append(s.watches, zkWatch{client: from, cnx: cnx, path: req.Path})
		}
		s.reply(ctx, from, cnx, Reply{Op: OpOK, Xid: req.Xid, Path: req.Path})
	}
}

// write runs a client's write: prepared here on the leader, forwarded to
// the leader by a follower; the answer comes when it commits.
func (s *zkServer) write(ctx sim.Ctx, w zkWait, path, owner string) {
	w.order = s.nextOrder()
	if s.state == zkLeading {
		x, code := s.prepare(w.kind, path, w.session, w.cxid, w.timeout, owner)
		if code != "" {
			if w.kind == zkTxnCreateSess {
				return
			}
			s.reply(ctx, w.client, w.cnx, Reply{Op: OpErr, Xid: w.cxid, Code: code})
			return
		}
		s.waits = append(s.waits, w)
		s.submit(ctx, x)
		return
	}
	s.waits = append(s.waits, w)
	req := zkTxn{Kind: w.kind, Path: path, Session: w.session, Cxid: w.cxid, Timeout: w.timeout, Owner: owner}
	s.toLeader(ctx, req.msg(zkOpRequest))
}

// onConnect handles a ConnectRequest.
func (s *zkServer) onConnect(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	c := connectOf(m)
	if !s.serving || c.LastZxid > s.lastCommitted() {
		// Not serving, or behind what the client has seen: it must try
		// another server.
		ctx.Send(from, connNotice(OpClose, c.Conn))
		return
	}
	s.dropConn(from) // a client has one connection: an old one is dead
	timeout := SessionTimeout(c.Timeout)
	if c.Session == 0 {
		id := s.nextSession
		s.nextSession++
		w := zkWait{client: from, cnx: c.Conn, session: id, kind: zkTxnCreateSess, timeout: timeout}
		s.write(ctx, w, "", ctx.Sim().Nodes[from].Name)
		return
	}
	w := zkWait{client: from, cnx: c.Conn, session: c.Session, kind: zkRevalidate, timeout: timeout}
	if s.state == zkLeading {
		if !s.sessionLive(c.Session) {
			ctx.Send(from, connNotice(OpExpired, c.Conn))
			return
		}
		s.touch(ctx, c.Session)
		s.accept(ctx, w)
		return
	}
	w.order = s.nextOrder()
	s.waits = append(s.waits, w)
	s.toLeader(ctx, revalidation{Session: c.Session, Timeout: timeout}.msg())
}

// Fire implements Process.
func (s *zkServer) Fire(ctx sim.Ctx, t sim.Timer) {
	if t.Seq != s.era {
		return // set in an earlier role
	}
	mono := ctx.Mono()
	switch t.Kind {
	case timerElection:
		if s.state != zkLooking {
			return
		}
		if due(mono, s.lastNotif+s.notTimeout) {
			s.broadcastVote(ctx)
			s.notTimeout = min(2*s.notTimeout, MaxNotificationInterval)
			s.lastNotif = mono
		}
		ctx.After(s.lastNotif+s.notTimeout-mono, sim.Timer{Kind: timerElection, Seq: s.era})
	case timerFinalize:
		if s.state != zkLooking || !s.finalizing {
			return
		}
		if !due(mono, s.finalizeAt) {
			ctx.After(s.finalizeAt-mono, sim.Timer{Kind: timerFinalize, Seq: s.era})
			return
		}
		s.decide(ctx, s.vote.leader)
	case timerFollowerInfo:
		if s.state == zkFollowing && !s.synced {
			s.sendFollowerInfo(ctx)
			ctx.After(zkLeaderConnectRetry, sim.Timer{Kind: timerFollowerInfo, Seq: s.era})
		}
	case timerTick:
		switch s.state {
		case zkLeading:
			s.leaderTick(ctx)
		case zkFollowing:
			limit := time.Duration(SyncLimit) * TickTime
			if !s.serving {
				limit = time.Duration(InitLimit) * TickTime
			}
			if mono-s.heard > limit {
				s.startElection(ctx, fmt.Sprintf("nothing from leader zk-%d for %v", s.leader, (mono-s.heard).Round(time.Millisecond)),
					sim.Say("note.zk.leaderSilent", "leader", fmt.Sprintf("zk-%d", s.leader), "for", (mono-s.heard).Round(time.Millisecond).String()))
				return
			}
			ctx.After(TickTime/2, sim.Timer{Kind: timerTick, Seq: s.era})
		}
	case timerExpire:
		if s.state != zkLeading || !s.established {
			return
		}
		var expired []zkTracked
		for i := range s.tracker {
			if tr := &s.tracker[i]; !tr.closing && due(mono, tr.expireAt) {
				tr.closing = true
				expired = append(expired, *tr)
			}
		}
		// Submitting can commit at once (a lone server) and shrink the
		// tracker, so the expired sessions are collected first.
		for _, tr := range expired {
			if ctx.Tracing() {
				ctx.TraceSaid(traceExpire, "session", fmt.Sprintf("session %#x expired (timeout %v)", tr.id, tr.timeout),
					sim.Say("note.zk.sessionExpired", "session", fmt.Sprintf("%#x", tr.id), "timeout", tr.timeout.String()))
			}
			x, _ := s.prepare(zkTxnCloseSession, "", tr.id, 0, 0, "")
			s.submit(ctx, x)
		}
		s.armExpirer(ctx)
	}
}

// leaderTick is the leader's loop every tickTime/2: check that a quorum is
// still synced, then ping every follower.
func (s *zkServer) leaderTick(ctx sim.Ctx) {
	mono := ctx.Mono()
	if !s.established {
		if mono-s.since > time.Duration(InitLimit)*TickTime {
			s.startElection(ctx, "no quorum of followers within initLimit", sim.Say("note.zk.noQuorum"))
			return
		}
	} else {
		synced := 1
		for _, p := range s.peers {
			if p.forwarding && mono-p.heard <= time.Duration(SyncLimit)*TickTime {
				synced++
			}
		}
		if synced < s.quorum() {
			s.startElection(ctx, "not sufficient followers synced", sim.Say("note.zk.notSynced"))
			return
		}
	}
	for i, p := range s.peers {
		if p.forwarding {
			s.toPeer(ctx, i+1, sim.Msg{Op: OpPing})
		}
	}
	ctx.After(TickTime/2, sim.Timer{Kind: timerTick, Seq: s.era})
}
