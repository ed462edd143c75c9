package dynamodb

import (
	"fmt"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// lockItem is the lock's item as the table stores it: the columns the
// library writes (key, ownerName, leaseDuration, recordVersionNumber;
// AmazonDynamoDBLockClient's OWNER_NAME, LEASE_DURATION,
// RECORD_VERSION_NUMBER), and when it was last written, on the table's
// clock, for the picture. The table never expires it: the lease is only
// counted by the clients.
type lockItem struct {
	exists  bool
	owner   sim.NodeID
	rvn     int64
	lease   time.Duration
	written time.Duration
}

// Table is the DynamoDB table: one process that answers GetItem with a
// consistent read and applies a conditional write only when its condition
// expression holds, answering ConditionalCheckFailed otherwise. Its item
// is durable: a crash loses nothing (DynamoDB acknowledges a write once it
// is on storage in several availability zones).
type Table struct {
	item   lockItem
	writes int // conditional writes applied
	failed int // conditional writes refused
}

// RoleTable is the table's role in the cluster picture.
var RoleTable = sim.NewRole("table")

// Clone implements Process.
func (t *Table) Clone() sim.Process { c := *t; return &c }

// Start implements Process.
func (t *Table) Start(ctx sim.Ctx) {}

// Crash implements Process: the item is durable.
func (t *Table) Crash(ctx sim.Ctx) {}

// Restart implements Process: the item survives, persist or not.
func (t *Table) Restart(ctx sim.Ctx, persist bool) {}

// Fire implements Process: the table sets no timers.
func (t *Table) Fire(ctx sim.Ctx, tm sim.Timer) {}

// holds reports whether the condition holds for a write from the sender.
func (t *Table) holds(r Request, from sim.NodeID) bool {
	switch r.Cond {
	case CondNotExists:
		return !t.item.exists
	case CondRVN:
		return t.item.exists && t.item.rvn == r.Expect
	case CondOwnerRVN:
		return t.item.exists && t.item.owner == from && t.item.rvn == r.Expect
	}
	return false
}

// Receive implements Process.
func (t *Table) Receive(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	r := RequestOf(m)
	var reply Reply
	switch r.Op {
	case OpGetItem:
		reply = Reply{Op: OpItem, Found: t.item.exists, Owner: t.item.owner, RVN: t.item.rvn, Lease: t.item.lease}
	case OpPutItem, OpUpdateItem, OpDeleteItem:
		if !t.holds(r, from) {
			t.failed++
			reply.Op = OpCCF
			if ctx.Tracing() {
				ctx.TraceSaid(traceCondition, r.Op.String(), fmt.Sprintf("condition %s failed: the item is %s", r.Cond, t.describe(ctx)),
					sim.Say("note.dynamodb.conditionFailed", "cond", string(r.Cond), "item", t.describe(ctx)))
			}
			break
		}
		t.writes++
		reply.Op = OpOK
		switch r.Op {
		case OpPutItem:
			t.item = lockItem{exists: true, owner: from, rvn: r.RVN, lease: r.Lease, written: ctx.Wall()}
			ctx.Own(LockKey, from)
		case OpUpdateItem:
			t.item.rvn, t.item.lease, t.item.written = r.RVN, r.Lease, ctx.Wall()
		case OpDeleteItem:
			t.item = lockItem{}
			ctx.Disown(LockKey, false)
		}
	default:
		return
	}
	ctx.Send(from, reply.msg(m))
}

// describe is the item in a few words for the trace: none, or its owner
// and version.
func (t *Table) describe(ctx sim.Ctx) string {
	if !t.item.exists {
		return "absent"
	}
	return fmt.Sprintf("%s's, recordVersionNumber %s", ctx.Sim().Nodes[t.item.owner].Name, RVNString(t.item.rvn))
}

// RVNString is how a recordVersionNumber is written: the first eight hex
// digits of the UUID the library generates (here a random number).
func RVNString(rvn int64) string { return fmt.Sprintf("%08x", uint32(rvn)) }
