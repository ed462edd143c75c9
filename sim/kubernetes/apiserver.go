package kubernetes

import (
	"fmt"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
)

// APIServer is kube-apiserver serving the Lease from etcd, as
// kubernetes/apiserver at tag v0.37.0-beta.0 (commit
// c19df515293eb2c814ee3cca7c46e5c2748e789f) does it:
//
//   - GET is a linearizable Get of the key (pkg/storage/etcd3/store.go,
//     Get): the object, with its resourceVersion the key's mod revision,
//     or 404 NotFound.
//   - POST is Create: a Txn If(ModRevision(key) = 0) Then(Put); an
//     existing key is 409 AlreadyExists.
//   - PUT is the registry's Update (pkg/registry/generic/registry/store.go)
//     through GuaranteedUpdate: the current object is read from etcd
//     (getCurrentState: no cached object is passed), the request's
//     resourceVersion compared with it (a mismatch is 409 Conflict, "the
//     object has been modified; please apply your changes to the latest
//     version and try again"), then a Txn If(ModRevision(key) =
//     the read's) Then(Put) Else(Get); a failed compare retries the update
//     with the Else branch's object, whose newer resourceVersion is the
//     same Conflict.
//
// Its etcd client talks to one member at a time and moves to the next
// when the connection is reset (a crashed member), sending its calls in
// flight again. The apiserver keeps nothing of its own: the Lease lives
// in etcd.
type APIServer struct {
	members []sim.NodeID
	at      int // the member its etcd client talks to
	nextID  int64
	calls   []apiCall
	owner   string // the holderIdentity it last wrote, for the checker
	writes  int    // updates and creates applied
	refused int    // conflicts answered
	routine bool   // the message being sent serves a routine call (Background)
}

// apiCall is a candidate's call the apiserver is serving.
type apiCall struct {
	client sim.NodeID
	msg    sim.Msg // the call as it came (its Seq is the client's)
	req    Request
	put    bool  // the Txn is sent (else the read)
	rev    int64 // the mod revision the Txn compares
	id     int64 // the etcd request id
}

// RoleAPIServer is the apiserver's role in the cluster picture.
var RoleAPIServer = sim.NewRole("apiserver")

// Clone implements Process.
func (a *APIServer) Clone() sim.Process {
	c := *a
	c.members = append([]sim.NodeID(nil), a.members...)
	c.calls = append([]apiCall(nil), a.calls...)
	return &c
}

// Start implements Process.
func (a *APIServer) Start(ctx sim.Ctx) {
	if a.members == nil {
		n := Nodes.Of(ctx.Scenario())
		a.members = make([]sim.NodeID, n)
		for i := range n {
			a.members[i] = ctx.Lookup(etcd.MemberName(i))
		}
	}
}

// Crash implements Process: the calls in flight are lost.
func (a *APIServer) Crash(ctx sim.Ctx) { a.calls = nil }

// Restart implements Process.
func (a *APIServer) Restart(ctx sim.Ctx, persist bool) { a.Start(ctx) }

// Fire implements Process: the apiserver sets no timers.
func (a *APIServer) Fire(ctx sim.Ctx, t sim.Timer) {}

func (a *APIServer) member(id sim.NodeID) bool {
	for _, m := range a.members {
		if m == id {
			return true
		}
	}
	return false
}

// Receive implements Process.
func (a *APIServer) Receive(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	if a.member(from) {
		a.fromEtcd(ctx, from, m)
		return
	}
	c := apiCall{client: from, msg: *m, req: RequestOf(m)}
	switch c.req.Op {
	case OpGet, OpUpdate:
	case OpCreate:
		c.put = true
	default:
		return
	}
	a.calls = append(a.calls, c)
	a.send(ctx, &a.calls[len(a.calls)-1])
}

// send sends a call's next etcd request to the member the client talks to.
func (a *APIServer) send(ctx sim.Ctx, c *apiCall) {
	a.nextID++
	c.id = a.nextID
	var m sim.Msg
	if c.put {
		m = etcd.Txn{Kind: etcd.TxnPut, Key: LeaseKey, Rev: c.rev, Val: c.req.Spec, Routine: c.req.Routine}.Msg()
	} else {
		m = etcd.Range{Kind: etcd.RangeValue, Key: LeaseKey, Routine: c.req.Routine}.Msg()
	}
	m.Seq = c.id
	a.routine = c.req.Routine
	ctx.Send(a.members[a.at], m)
	a.routine = false
}

// Background implements sim.Background: what it sends for a routine call
// (Request.Routine) is routine too.
func (a *APIServer) Background(m *sim.Msg) bool { return a.routine }

// fromEtcd handles a member's answer.
func (a *APIServer) fromEtcd(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	if m.Op == etcd.OpRST {
		if from != a.members[a.at] {
			return
		}
		a.at = (a.at + 1) % len(a.members)
		for i := range a.calls {
			a.send(ctx, &a.calls[i])
		}
		return
	}
	i := -1
	for j := range a.calls {
		if a.calls[j].id == m.Seq {
			i = j
		}
	}
	if i < 0 {
		return
	}
	c := &a.calls[i]
	switch m.Op {
	case etcd.OpRangeResp:
		r := etcd.RangeRespOf(m)
		spec, _ := r.Val.(*LeaseSpec)
		switch {
		case r.Key == "" || spec == nil:
			a.answer(ctx, i, Reply{Op: OpNotFound, Why: "leases.coordination.k8s.io \"lockscope\" not found"})
		case c.req.Op == OpGet:
			a.answer(ctx, i, Reply{Op: OpOK, Spec: spec, RV: r.ModRev})
		case c.req.RV != r.ModRev:
			a.conflict(ctx, i, r.ModRev)
		default:
			c.put, c.rev = true, r.ModRev
			a.send(ctx, c)
		}
	case etcd.OpTxnResp:
		r := etcd.TxnRespOf(m)
		switch {
		case r.Succeeded:
			a.written(ctx, c.req.Spec)
			op := OpOK
			if c.req.Op == OpCreate {
				op = OpCreated
			}
			a.answer(ctx, i, Reply{Op: op, Spec: c.req.Spec, RV: r.Rev})
		case c.req.Op == OpCreate:
			a.refused++
			a.answer(ctx, i, Reply{Op: OpConflict, Why: "leases.coordination.k8s.io \"lockscope\" already exists"})
		default:
			a.conflict(ctx, i, r.Rev)
		}
	case etcd.OpError:
		why := string(etcd.ErrorOf(m))
		if ctx.Tracing() {
			ctx.TraceSaid(traceStore, c.req.Op.String(), "etcd answered: "+why, sim.Say("note.kubernetes.etcdError", "err", why))
		}
		a.answer(ctx, i, Reply{Op: OpFailed, Why: why})
	}
}

// conflict answers an update whose resourceVersion is not the key's.
func (a *APIServer) conflict(ctx sim.Ctx, i int, current int64) {
	a.refused++
	rv := a.calls[i].req.RV
	if ctx.Tracing() {
		ctx.TraceSaid(traceStore, OpUpdate.String(), fmt.Sprintf("resourceVersion %d is not the Lease's %d: 409 Conflict", rv, current),
			sim.Say("note.kubernetes.conflict", "rv", fmt.Sprint(rv), "current", fmt.Sprint(current)))
	}
	a.answer(ctx, i, Reply{Op: OpConflict, Why: "the object has been modified; please apply your changes to the latest version and try again"})
}

// written tells the checker who holds the Lease now that a write of it
// applied.
func (a *APIServer) written(ctx sim.Ctx, spec *LeaseSpec) {
	a.writes++
	if spec.Holder == a.owner {
		return
	}
	if spec.Holder == "" {
		ctx.Disown(LeaseKey, false)
	} else {
		ctx.Own(LeaseKey, ctx.Lookup(spec.Holder))
	}
	a.owner = spec.Holder
}

// answer sends the reply to call i and forgets it.
func (a *APIServer) answer(ctx sim.Ctx, i int, r Reply) {
	c := a.calls[i]
	a.calls = append(a.calls[:i], a.calls[i+1:]...)
	a.routine = c.req.Routine
	ctx.Send(c.client, r.msg(&c.msg))
	a.routine = false
}
