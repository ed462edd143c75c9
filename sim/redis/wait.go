package redis

import (
	"time"

	"github.com/lockscope/lockscope/sim"
)

// WAIT, as redis/redis src/replication.c has it (7.0, waitCommand,
// replicationCountAcksByOffset, processClientsWaitingReplicas): a client's
// WAIT numreplicas timeout is answered at once if enough replicas already
// acknowledged the replication offset of the client's last write
// (c->woff); otherwise the client blocks, the master asks its replicas
// for their offset (REPLCONF GETACK *, sent from beforeSleep), and the
// WAIT is answered when enough ACKs came or at its timeout, with the
// number of replicas whose acknowledged offset reached the client's. The
// replica answers GETACK with REPLCONF ACK and the offset it processed.
// The replica's own once-a-second ACK (replicationCron) is not sent: only
// a WAIT asks, which is all WAIT's answer depends on.

// clientOffset is a client's c->woff: the master's replication offset
// after that client's last write.
type clientOffset struct {
	client sim.NodeID
	offset int64
}

// blockedWait is a WAIT the master has not answered yet.
type blockedWait struct {
	id       int64
	client   sim.NodeID
	seq      int64 // the WAIT's request id, echoed in its answer
	replicas int64
	offset   int64 // the client's woff when it sent WAIT
}

// waitState is a server's share of WAIT: its side of replication's
// offsets and the clients it keeps waiting.
type waitState struct {
	replOff int64          // master_repl_offset: entries shipped to the replica so far
	applied int64          // as a replica: the offset of the last entry applied
	acked   int64          // the replica's last acknowledged offset
	woffs   []clientOffset // each client's woff
	waits   []blockedWait  // WAITs not yet answered
	waitID  int64
}

// clone is a copy that shares nothing mutable with w.
func (w waitState) clone() waitState {
	w.woffs = append([]clientOffset(nil), w.woffs...)
	w.waits = append([]blockedWait(nil), w.waits...)
	return w
}

// wrote records that client's command moved the replication offset.
func (w *waitState) wrote(client sim.NodeID) {
	for i := range w.woffs {
		if w.woffs[i].client == client {
			w.woffs[i].offset = w.replOff
			return
		}
	}
	w.woffs = append(w.woffs, clientOffset{client, w.replOff})
}

// woff is client's last write's offset, 0 if it never wrote.
func (w *waitState) woff(client sim.NodeID) int64 {
	for _, o := range w.woffs {
		if o.client == client {
			return o.offset
		}
	}
	return 0
}

// ackedBy counts the replicas whose acknowledged offset reached offset
// (replicationCountAcksByOffset): this server has one replica or none.
func (r *Server) ackedBy(offset int64) int64 {
	if r.Replica == sim.None || r.acked < offset {
		return 0
	}
	return 1
}

// waitOp handles the commands of WAIT's machinery; false for any other.
func (r *Server) waitOp(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) bool {
	switch m.Op {
	case OpWait:
		if r.Role != RoleMaster {
			ctx.Send(from, Reply{Op: OpErr}.msg(m)) // WAIT cannot be used with replica instances
			return true
		}
		w := waitOf(m)
		off := r.woff(from)
		if n := r.ackedBy(off); n >= w.Replicas {
			ctx.Send(from, Reply{Op: OpReplicas, Int: n}.msg(m))
			return true
		}
		r.waitID++
		r.waits = append(r.waits, blockedWait{id: r.waitID, client: from, seq: m.Seq, replicas: w.Replicas, offset: off})
		if r.Replica != sim.None {
			ctx.Send(r.Replica, getAckMsg())
		}
		if w.Timeout > 0 {
			ctx.After(w.Timeout, sim.Timer{Kind: timerWait, Seq: r.waitID})
		}
	case OpGetAck:
		if r.Role == RoleReplica {
			ctx.Send(from, ackMsg(r.applied))
		}
	case OpAck:
		if r.Role != RoleMaster || from != r.Replica {
			return true
		}
		if off := ackOf(m); off > r.acked {
			r.acked = off
		}
		kept := r.waits[:0]
		for _, w := range r.waits {
			if n := r.ackedBy(w.offset); n >= w.replicas {
				ctx.Send(w.client, replicasMsg(w.seq, n))
				continue
			}
			kept = append(kept, w)
		}
		r.waits = kept
	default:
		return false
	}
	return true
}

// waitTimedOut answers the blocked WAIT id with the replicas that
// acknowledged so far.
func (r *Server) waitTimedOut(ctx sim.Ctx, id int64) {
	for i, w := range r.waits {
		if w.id == id {
			r.waits = append(r.waits[:i], r.waits[i+1:]...)
			ctx.Send(w.client, replicasMsg(w.seq, r.ackedBy(w.offset)))
			return
		}
	}
}

// SlavesSyncTimeout is the WAIT timeout Redisson passes, its
// slavesSyncTimeout default of 1000 ms (redisson/redisson 4.7.0
// redisson/src/main/java/org/redisson/config/Config.java).
const SlavesSyncTimeout = time.Second
