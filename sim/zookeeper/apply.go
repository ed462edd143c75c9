package zookeeper

import (
	"math/bits"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// indexAfter is the log length that includes every transaction up to zxid.
func (s *zkServer) indexAfter(zxid int64) int {
	k := s.commit
	for k < s.log.Len() && s.log.At(k).Zxid <= zxid {
		k++
	}
	return k
}

func (s *zkServer) sessionLive(id int64) bool {
	for _, t := range s.tracker {
		if t.id == id {
			return !t.closing
		}
	}
	return false
}

// touch is SessionTracker.touchSession on the leader.
func (s *zkServer) touch(ctx sim.Ctx, id int64) {
	for i := range s.tracker {
		t := &s.tracker[i]
		if t.id == id && !t.closing {
			t.expireAt = max(t.expireAt, zkRoundUp(ctx.Mono()+t.timeout))
		}
	}
}

// noteTouch records that a session was heard from at this server: the
// leader touches it, a follower reports it at the next ping.
func (s *zkServer) noteTouch(id int64) {
	for _, t := range s.touched {
		if t == id {
			return
		}
	}
	s.touched = append(s.touched, id)
}

// prepare is the leader's PrepRequestProcessor: it checks a request against
// every logged change and turns it into a transaction.
func (s *zkServer) prepare(kind txnKind, path string, session, cxid int64, timeout time.Duration, owner string) (zkTxn, zkCode) {
	x := zkTxn{Kind: kind, Session: session, Cxid: cxid, Timeout: timeout, Owner: owner}
	switch kind {
	case zkTxnCreate:
		if !s.sessionLive(session) {
			return x, zkErrExpired
		}
		x.Path = zkSeqName(path, s.prep.cversion)
	case zkTxnDelete:
		if !s.sessionLive(session) {
			return x, zkErrExpired
		}
		if s.prep.find(path) < 0 {
			return x, zkErrNoNode
		}
		x.Path = path
	case zkTxnCreateSess, zkTxnCloseSession:
	default:
		return x, zkErrBadArgs
	}
	return x, ""
}

// submit logs a transaction and proposes it to every synced follower.
func (s *zkServer) submit(ctx sim.Ctx, x zkTxn) {
	s.counter++
	x.Zxid = s.currentEpoch<<32 | s.counter
	s.log.Append(x)
	s.acks.Append(1 << (s.sid - 1))
	s.prep.apply(x)
	var proposal sim.Msg // one body for every follower
	for i, p := range s.peers {
		if p.forwarding {
			if proposal.Body == nil {
				proposal = x.msg(zkOpProposal)
			}
			s.toPeer(ctx, i+1, proposal)
		}
	}
	s.tryCommit(ctx)
}

// tryCommit commits, in order, every proposal a quorum has acknowledged.
func (s *zkServer) tryCommit(ctx sim.Ctx) {
	for s.commit < s.log.Len() && bits.OnesCount8(s.acks.At(s.commit)) >= s.quorum() {
		z := s.log.At(s.commit).Zxid
		for i, p := range s.peers {
			if p.forwarding {
				s.toPeer(ctx, i+1, zxidMsg(zkOpCommit, z))
			}
		}
		s.applyUpTo(ctx, s.commit+1)
	}
}

// applyUpTo applies committed transactions in order: watches fire, local
// clients get their answers, sessions come and go.
func (s *zkServer) applyUpTo(ctx sim.Ctx, upto int) {
	leader := s.state == zkLeading
	for s.commit < upto && s.commit < s.log.Len() {
		x := s.log.At(s.commit)
		s.commit++
		deleted, changed := s.tree.apply(x)
		for _, name := range deleted {
			if s.watched(name) {
				s.fire(ctx, LockPath+"/"+name, false, zkEventDeleted, x.Zxid)
			}
		}
		if changed {
			s.fire(ctx, LockPath, true, zkEventChildren, x.Zxid)
		}
		switch x.Kind {
		case zkTxnCreateSess:
			if leader && s.established {
				s.tracker = append(s.tracker, zkTracked{id: x.Session, timeout: x.Timeout, expireAt: zkRoundUp(ctx.Mono() + x.Timeout)})
			}
			if w, ok := s.takeWait(x.Session, 0, zkTxnCreateSess); ok {
				s.accept(ctx, w)
			}
		case zkTxnCloseSession:
			for i := 0; i < len(s.tracker); i++ {
				if s.tracker[i].id == x.Session {
					s.tracker = append(s.tracker[:i], s.tracker[i+1:]...)
					i--
				}
			}
			s.closeSessionConns(ctx, x.Session)
		default:
			if w, ok := s.takeWait(x.Session, x.Cxid, x.Kind); ok {
				s.reply(ctx, w.client, w.cnx, Reply{Op: OpOK, Xid: w.cxid, Path: LockPath + "/" + x.Path})
				s.release(ctx, w.session)
			}
		}
		if leader && s.established {
			s.updateOwner(ctx, x.Kind == zkTxnCloseSession)
		}
	}
}

// closeSessionConns closes the connection of a session that just ended.
func (s *zkServer) closeSessionConns(ctx sim.Ctx, session int64) {
	var gone []sim.NodeID
	for _, c := range s.conns {
		if c.session == session {
			ctx.Send(c.client, connNotice(OpClose, c.cnx))
			gone = append(gone, c.client)
		}
	}
	for _, c := range gone {
		s.dropConn(c)
	}
	waits := s.waits[:0]
	for _, w := range s.waits {
		if w.session != session {
			waits = append(waits, w)
		}
	}
	s.waits = waits
}

// updateOwner tells the checker which client the lowest child belongs to.
func (s *zkServer) updateOwner(ctx sim.Ctx, expired bool) {
	if Readers.IsOn(ctx.Scenario()) {
		s.updateHolders(ctx, expired, s.tree.holders()) // the read–write lock: readers hold together (rwlock.go)
		return
	}
	low, ok := s.tree.lowest()
	name := ""
	if ok {
		name = low.Name
	}
	if name == s.owner {
		return
	}
	if s.owner != "" {
		ctx.Disown(LockPath, expired)
	}
	s.owner = name
	if ok {
		if id := ctx.Lookup(s.tree.owner(low.Session)); id != sim.None {
			ctx.Own(LockPath, id)
		}
	}
}

// watched reports whether a data watch is set on the lock znode's child
// name: fire would find none otherwise, so its path need not be built.
func (s *zkServer) watched(name string) bool {
	const parent = LockPath + "/"
	for _, w := range s.watches {
		if !w.child && len(w.path) == len(parent)+len(name) && w.path[len(parent):] == name && w.path[:len(parent)] == parent {
			return true
		}
	}
	return false
}

// fire delivers and removes every watch on path (one-shot watches).
func (s *zkServer) fire(ctx sim.Ctx, path string, child bool, event zkEvent, zxid int64) {
	var hit []zkWatch
	keep := s.watches[:0]
	for _, w := range s.watches {
		if w.path == path && w.child == child {
			hit = append(hit, w)
			continue
		}
		keep = append(keep, w)
	}
	s.watches = keep
	for _, w := range hit {
		if i, ok := s.conn(w.client, w.cnx); ok {
			s.toClient(ctx, i, WatchEvent{Path: path, Event: event, Zxid: zxid}.msg())
		}
	}
}

func (s *zkServer) dropWatches(client sim.NodeID) {
	keep := s.watches[:0]
	for _, w := range s.watches {
		if w.client != client {
			keep = append(keep, w)
		}
	}
	s.watches = keep
}

// takeWait removes and returns the wait for (session, cxid); kind "" matches
// any request kind but createSession and revalidation.
func (s *zkServer) takeWait(session, cxid int64, kind txnKind) (zkWait, bool) {
	for i, w := range s.waits {
		if w.session != session {
			continue
		}
		switch {
		case kind == zkTxnCreateSess || kind == zkRevalidate:
			if w.kind != kind {
				continue
			}
		case w.cxid != cxid || w.kind == zkTxnCreateSess || w.kind == zkRevalidate:
			continue
		}
		s.waits = append(s.waits[:i], s.waits[i+1:]...)
		return w, true
	}
	return zkWait{}, false
}

func (s *zkServer) conn(client sim.NodeID, cnx int64) (int, bool) {
	for i, c := range s.conns {
		if c.client == client && c.cnx == cnx {
			return i, true
		}
	}
	return -1, false
}

// reply answers a client on its connection, with the zxid reached.
func (s *zkServer) reply(ctx sim.Ctx, client sim.NodeID, cnx int64, r Reply) {
	i, ok := s.conn(client, cnx)
	if !ok {
		return
	}
	r.Zxid = s.lastCommitted()
	s.toClient(ctx, i, r.msg())
}

// hasWrite reports whether a session has a write not yet answered.
func (s *zkServer) hasWrite(session int64) (int64, bool) {
	first, ok := int64(0), false
	for _, w := range s.waits {
		if w.session == session && (!ok || w.order < first) {
			first, ok = w.order, true
		}
	}
	return first, ok
}

// release serves the reads and pings of a session that no earlier write
// holds back any more.
func (s *zkServer) release(ctx sim.Ctx, session int64) {
	first, pending := s.hasWrite(session)
	var serve []zkQueued
	keep := s.queued[:0]
	for _, q := range s.queued {
		if q.session == session && (!pending || q.order < first) {
			serve = append(serve, q)
			continue
		}
		keep = append(keep, q)
	}
	s.queued = keep
	for _, q := range serve {
		s.serveRead(ctx, q.client, q.cnx, &q.m)
	}
}
