package dynamodb

import (
	"time"

	"github.com/lockscope/lockscope/sim"
)

// DynamoDB's API calls the lock client makes, and the table's answers. A
// request's typed form is a Request and an answer's a Reply; only this
// file reads or writes the envelope's fields for them. Both carry the
// client's request id in Seq.
var (
	OpGetItem    = sim.NewOp("GetItem")    // GetItem, ConsistentRead true (AmazonDynamoDBLockClient.readFromDynamoDB)
	OpPutItem    = sim.NewOp("PutItem")    // PutItem with a condition expression
	OpUpdateItem = sim.NewOp("UpdateItem") // the heartbeat: SET recordVersionNumber, leaseDuration
	OpDeleteItem = sim.NewOp("DeleteItem") // releaseLock with deleteLockOnRelease
	OpItem       = sim.NewOp("Item")       // GetItem's answer: the item, or none
	OpOK         = sim.NewOp("OK")         // a conditional write applied
	OpCCF        = sim.NewOp("ConditionalCheckFailed")
)

// Timer kinds of the lock client.
var (
	timerRefresh   = sim.NewTimerKind("refreshPeriod")   // acquireLock's Thread.sleep(refreshPeriod)
	timerHeartbeat = sim.NewTimerKind("heartbeatPeriod") // the heartbeat thread's sleep
	timerMonitor   = sim.NewTimerKind("sessionMonitor")  // the session monitor thread's sleep until the danger zone
	timerRead      = sim.NewTimerKind("readTimeout")     // the SDK's read timeout of a request; Seq is the request
)

// Trace kinds of the table and the lock client.
var (
	traceCondition = sim.NewTraceKind("condition") // a condition expression failed on the table
	traceObserve   = sim.NewTraceKind("observe")   // a waiter saw a recordVersionNumber (new or unchanged)
	traceHeartbeat = sim.NewTraceKind("heartbeat") // the heartbeat thread's verdict
	traceMonitor   = sim.NewTraceKind("monitor")   // the session monitor's callback
	traceGiveUp    = sim.NewTraceKind("giveup")    // acquireLock threw LockNotGrantedException
	traceRelease   = sim.NewTraceKind("release")   // releaseLock's answer
	traceTimeout   = sim.NewTraceKind("timeout")   // a request with no answer in ReadTimeout
)

// Condition is a write's condition expression: what the table checks
// before it applies the write (AmazonDynamoDBLockClient's constants).
type Condition string

// The condition expressions the lock client writes with.
const (
	// CondNotExists: ACQUIRE_LOCK_THAT_DOESNT_EXIST_PK_CONDITION, for a
	// lock no item holds.
	CondNotExists Condition = "attribute_not_exists(key)"
	// CondRVN: PK_EXISTS_AND_RVN_IS_THE_SAME_CONDITION, the takeover of an
	// item whose lease ran out unchanged on the waiter's clock.
	CondRVN Condition = "attribute_exists(key) AND recordVersionNumber = :rvn"
	// CondOwnerRVN: PK_EXISTS_AND_OWNER_NAME_SAME_AND_RVN_SAME_CONDITION,
	// the heartbeat's and the release's.
	CondOwnerRVN Condition = "attribute_exists(key) AND ownerName = :me AND recordVersionNumber = :rvn"
)

// Request is a call to the table (exported for the conformance tests'
// scripted clients): its op and condition, the recordVersionNumber the
// condition expects (Expect), the new one it writes (RVN) and the
// leaseDuration it writes. The owner is the sender.
type Request struct {
	Op     sim.Op
	Cond   Condition
	Expect int64
	RVN    int64
	Lease  time.Duration
}

// Msg is the request on the wire (its Seq set by the sender).
func (r Request) Msg() sim.Msg {
	return sim.Msg{Op: r.Op, Key: LockKey, Value: string(r.Cond), Token: r.Expect, N: r.RVN, TTL: r.Lease}
}

// RequestOf reads a request.
func RequestOf(m *sim.Msg) Request {
	return Request{Op: m.Op, Cond: Condition(m.Value), Expect: m.Token, RVN: m.N, Lease: m.TTL}
}

// Reply is the table's answer: OK, ConditionalCheckFailed, or to a GetItem
// the item (Found, its owner, recordVersionNumber and leaseDuration).
type Reply struct {
	Op    sim.Op
	Found bool
	Owner sim.NodeID
	RVN   int64
	Lease time.Duration
}

// msg is the reply to request m on the wire.
func (r Reply) msg(m *sim.Msg) sim.Msg {
	owner := int64(-1)
	if r.Found {
		owner = int64(r.Owner)
	}
	return sim.Msg{Op: r.Op, Seq: m.Seq, Key: m.Key, Token: r.RVN, N: owner, TTL: r.Lease}
}

// ReplyOf reads a reply.
func ReplyOf(m *sim.Msg) Reply {
	return Reply{Op: m.Op, Found: m.N >= 0, Owner: sim.NodeID(max(m.N, 0)), RVN: m.Token, Lease: m.TTL}
}
