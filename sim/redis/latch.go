package redis

import (
	"time"

	"github.com/lockscope/lockscope/sim"
)

// latchKey is one redisson_unlock_latch:{lock}:requestId key: the answer
// (0 or 1) of the unlock that set it, until its PX runs out. It is kept
// apart from the lock's keyspace, so the cluster view and the lock's
// ownership see only the lock; it is not replicated (a simplification:
// Redisson's script SETs it on the master, and a replica would copy it).
// The client's DEL of its latch once the unlock answered
// (RedissonBaseLock.unlockInnerAsync) is not sent: the latch runs out by
// its PX instead, and nothing reads it after its unlock answered.
type latchKey struct {
	id       string
	answer   int64
	deadline time.Duration // on the server's wall clock
}

// latches are a server's unlock latches.
type latches []latchKey

func (ls latches) clone() latches { return append(latches(nil), ls...) }

// get is the answer latch id holds, if it is set and has not expired by
// this server's clock (expired ones are dropped).
func (ls *latches) get(ctx sim.Ctx, id string) (int64, bool) {
	kept := (*ls)[:0]
	answer, found := int64(0), false
	for _, l := range *ls {
		if ctx.Wall() >= l.deadline {
			continue
		}
		if l.id == id {
			answer, found = l.answer, true
		}
		kept = append(kept, l)
	}
	*ls = kept
	return answer, found
}

// set is SET latch answer PX px.
func (ls *latches) set(ctx sim.Ctx, l UnlockLatch, answer int64) {
	*ls = append(*ls, latchKey{id: l.ID, answer: answer, deadline: ctx.Wall() + l.PX})
}
