package sim

import (
	"fmt"
	"maps"
	"strconv"
	"time"
)

// StorageName is the node of the protected resource in every mode: the
// database or file service the lock is meant to protect. It is reached
// over the network like any server and can be paused, crashed or cut off.
const StorageName = "storage"

// storageRTO is how long a client waits for the storage's answer before it
// sends the same request again, as TCP retransmits an unacknowledged
// segment (Linux's minimum RTO is 200 ms): a request cut off by a partition
// or sent to a paused storage arrives once the way is open again.
func storageRTO(sc *Scenario) time.Duration {
	return max(200*time.Millisecond, 4*(sc.Latency.D()+sc.Jitter.D()))
}

// StorageServer is the protected resource. It keeps a value (a version
// number: one per accepted write) and, following Kleppmann's fencing rule,
// the highest fencing token it has seen on any request: a request that
// carries a lower token is refused. Requests without a token (fencing off,
// or Redlock, which has none) are always served.
type StorageServer struct {
	Highest  int64  // highest token seen on any request
	Version  int64  // accepted writes so far
	Writer   NodeID // the client of the last accepted write
	Accepted int    // requests served
	Refused  int    // requests refused for a lower token
	last     map[NodeID]storageAnswer
	durable  *StorageServer
}

// storageAnswer is the answer to a client's last request, so that a
// retransmitted copy is answered again without being applied twice.
type storageAnswer struct {
	seq   int64
	reply Msg
}

func newStorage() *StorageServer { return &StorageServer{Writer: None} }

// Clone implements Process.
func (st *StorageServer) Clone() Process {
	c := *st
	c.last = maps.Clone(st.last)
	if st.durable != nil {
		d := *st.durable
		c.durable = &d
	}
	return &c
}

// Start implements Process.
func (st *StorageServer) Start(Ctx) {}

// Crash implements Process: the storage is a database whose value and
// highest token are on disk; a restart without persist starts it empty.
func (st *StorageServer) Crash(Ctx) {
	d := *st
	d.last, d.durable = nil, nil
	st.durable = &d
}

// Restart implements Process.
func (st *StorageServer) Restart(_ Ctx, persist bool) {
	fresh := newStorage()
	if persist && st.durable != nil {
		*fresh = *st.durable
	}
	*st = *fresh
}

// Fire implements Process: the storage sets no timers.
func (st *StorageServer) Fire(Ctx, Timer) {}

// Receive implements Process: judge the request, record it, answer it.
func (st *StorageServer) Receive(ctx Ctx, from NodeID, m *Msg) {
	req, isReq := storageRequestOf(m)
	if !isReq {
		return
	}
	if a, ok := st.last[from]; ok && a.seq == req.Seq {
		ctx.Send(from, a.reply) // a retransmitted copy: answer it again
		return
	}
	ok := !req.Fenced || req.Token >= st.Highest
	if ok && req.Fenced {
		st.Highest = req.Token
	}
	if ok && req.Write {
		st.Version++
		st.Writer = from
	}
	if ok {
		st.Accepted++
	} else {
		st.Refused++
	}
	ctx.Sim().Check.stored(ctx.Now(), from, req, ok, st.Highest)
	reply := storageReply{Write: req.Write, Seq: req.Seq, OK: ok, Highest: st.Highest}.msg()
	if st.last == nil {
		st.last = map[NodeID]storageAnswer{}
	}
	st.last[from] = storageAnswer{seq: req.Seq, reply: reply}
	ctx.Send(from, reply)
}

// storageDetail is the storage's line in the cluster view.
func (st *StorageServer) detail(fencing bool) (string, Words) {
	if fencing {
		return fmt.Sprintf("value v%d, highest token %d", st.Version, st.Highest),
			say("detail.storage.fenced", "version", strconv.FormatInt(st.Version, 10), "token", strconv.FormatInt(st.Highest, 10))
	}
	return fmt.Sprintf("value v%d", st.Version), say("detail.storage", "version", strconv.FormatInt(st.Version, 10))
}

// valueInLockService reports whether the protected value lives in the lock
// service itself: fencing is on and the design keeps the fenced value in
// the service (Traits.FencedValueInService; etcd's guarded Txn), so the
// storage node is not used.
func valueInLockService(sc *Scenario) bool {
	return sc.Fencing && TraitsOf(sc.Mode).FencedValueInService
}

// UsesStorage reports whether the scenario's holders read and write the
// storage node, so that a fault on it can matter (a search leaves it out
// otherwise).
func (sc *Scenario) UsesStorage() bool { return !valueInLockService(sc) }

// WriteAnswered ends a write the mode sent itself (etcd's guarded Txn).
func (l *Loop) WriteAnswered() { l.writing = false }

// storageReq is a client's request to the storage still waiting for its
// answer: it is sent again every RTO until answered.
type storageReq struct {
	msg   Msg
	timer TimerID
}

// Storage steps a holder goes through, as the engine ties faults to them
// ("when" in a fault).
const (
	StepGranted     = "granted"      // right after the grant
	StepBeforeWrite = "before-write" // after the last check, before the write is sent
)

// storageSend sends a request to the storage and keeps it for
// retransmission.
func (l *Loop) storageSend(ctx Ctx, op Op, token int64) {
	sc := ctx.Scenario()
	l.storeSeq++
	m := storageRequest{Write: op == OpWrite, Seq: l.storeSeq, Token: token,
		Fenced: sc.Fencing && ctx.Sim().Mode.Traits().Token != NoToken, // Redlock has no token to fence with
	}.msg()
	ctx.Cancel(l.store.timer)
	l.store = storageReq{msg: m}
	if op == OpWrite {
		ctx.Sim().Check.sendingWrite(ctx.Now(), ctx.ID(), m.Seq)
	}
	id := ctx.Sim().StorageID()
	ctx.Send(id, m)
	l.store.timer = ctx.After(storageRTO(sc), Timer{Kind: storageRT, Seq: m.Seq})
}

// storageResend handles the retransmission timer.
func (l *Loop) storageResend(ctx Ctx, t Timer) {
	if l.store.msg.Op == NoOp || t.Seq != l.store.msg.Seq {
		return
	}
	ctx.Send(ctx.Sim().StorageID(), l.store.msg)
	l.store.timer = ctx.After(storageRTO(ctx.Scenario()), Timer{Kind: storageRT, Seq: t.Seq})
}

// StorageReply handles a message from the storage. It reports whether m
// came from the storage (the mode has nothing more to do with it) and
// whether it is the answer to the write the client waits for: the mode
// then releases the lock.
func (l *Loop) StorageReply(ctx Ctx, from NodeID, m *Msg) (handled, written bool) {
	if from != ctx.Sim().StorageID() {
		return false, false
	}
	if l.store.msg.Op == NoOp || m.Seq != l.store.msg.Seq {
		return true, false // a late copy of an answer already had
	}
	op := l.store.msg.Op
	ctx.Cancel(l.store.timer)
	l.store = storageReq{}
	if op != OpWrite && !(l.shared && l.writing) {
		return true, false // a writer's read at its grant
	}
	if r := storageReplyOf(m); !r.OK {
		ctx.TraceSaid(TraceWrite, "refused", fmt.Sprintf("the storage refused the write: token %d is below %d", l.writeToken, r.Highest),
			say("note.storage.refused", "token", strconv.FormatInt(l.writeToken, 10), "highest", strconv.FormatInt(r.Highest, 10)))
	}
	l.writing = false
	return true, l.State == StateHolding && !l.stopped && l.Round == l.writeRound
}
