package kubernetes

import (
	"time"

	"github.com/lockscope/lockscope/sim"
)

// The apiserver's REST calls the candidates make on the Lease
// (/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/lockscope),
// and its answers, by HTTP verb and status. A call's typed form is a
// Request and an answer's a Reply; only this file reads or writes the
// envelope's fields for them. Both carry the client's request id in Seq.
var (
	OpGet      = sim.NewOp("GET")  // LeaseLock.Get: Leases(ns).Get
	OpCreate   = sim.NewOp("POST") // LeaseLock.Create: Leases(ns).Create
	OpUpdate   = sim.NewOp("PUT")  // LeaseLock.Update: Leases(ns).Update with the resourceVersion last read
	OpOK       = sim.NewOp("200")  // the Lease, as read or written
	OpCreated  = sim.NewOp("201")  // the Lease created
	OpNotFound = sim.NewOp("404")  // no Lease
	OpConflict = sim.NewOp("409")  // AlreadyExists, or Conflict: "the object has been modified"
	OpFailed   = sim.NewOp("500")  // etcd failed the request (its error in Why)
)

// Timer kinds of the candidates.
var (
	timerTry      = sim.NewTimerKind("retryPeriod")   // the next tryAcquireOrRenew (acquire's jittered wait, renew's wait, the poll's tick); Seq is the generation
	timerDeadline = sim.NewTimerKind("renewDeadline") // the renew poll's context deadline; Seq is the generation
	timerRequest  = sim.NewTimerKind("httpTimeout")   // the leader-election client's request timeout; Seq is the request
)

// Trace kinds of the apiserver and the candidates.
var (
	traceStore   = sim.NewTraceKind("store")   // the apiserver's storage: a conflict, an etcd error
	traceObserve = sim.NewTraceKind("observe") // a candidate saw the record (changed or not) or found it still held
	traceLead    = sim.NewTraceKind("lead")    // a candidate started or stopped leading
	traceRelease = sim.NewTraceKind("release") // ReleaseOnCancel's release
	traceTimeout = sim.NewTraceKind("timeout") // a call with no answer before its timeout
)

// LeaseSpec is the Lease's spec as the elector writes it
// (coordination.k8s.io/v1 LeaseSpec through resourcelock's
// LeaderElectionRecordToLeaseSpec): holderIdentity, leaseDurationSeconds,
// acquireTime, renewTime (the writer's wall clock) and leaseTransitions.
// A value sent is never changed: messages share it.
type LeaseSpec struct {
	Holder          string
	DurationSeconds int
	AcquireTime     time.Duration
	RenewTime       time.Duration
	Transitions     int
}

// Request is a call to the apiserver (exported for a conformance test's
// scripted client): a GET, or a POST or PUT of Spec; a PUT carries the
// resourceVersion it was read at.
type Request struct {
	Op   sim.Op
	Spec *LeaseSpec
	RV   int64
	// Routine: the call repeats what was said before (a leader's renewal,
	// a candidate's poll after its first): the apiserver's calls to etcd
	// for it and its answer are background for the window's pacing.
	Routine bool
}

// Msg is the call on the wire (its Seq set by the sender).
func (r Request) Msg() sim.Msg {
	m := sim.Msg{Op: r.Op, Key: LeaseName, Token: r.RV, N: sim.Flag(r.Routine)}
	if r.Spec != nil {
		m.Body = r.Spec
	}
	return m
}

// RequestOf reads a call.
func RequestOf(m *sim.Msg) Request {
	spec, _ := m.Body.(*LeaseSpec)
	return Request{Op: m.Op, Spec: spec, RV: m.Token, Routine: m.N == 1}
}

// Reply is the apiserver's answer: its status, the Lease and its
// resourceVersion (the etcd key's mod revision) on 200 and 201, the
// reason otherwise.
type Reply struct {
	Op   sim.Op
	Spec *LeaseSpec
	RV   int64
	Why  string
}

// msg is the answer to call m on the wire.
func (r Reply) msg(m *sim.Msg) sim.Msg {
	out := sim.Msg{Op: r.Op, Seq: m.Seq, Key: LeaseName, Token: r.RV, Value: r.Why}
	if r.Spec != nil {
		out.Body = r.Spec
	}
	return out
}

// ReplyOf reads an answer.
func ReplyOf(m *sim.Msg) Reply {
	spec, _ := m.Body.(*LeaseSpec)
	return Reply{Op: m.Op, Spec: spec, RV: m.Token, Why: m.Value}
}
