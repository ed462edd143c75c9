package zookeeper

import (
	"fmt"

	"github.com/lockscope/lockscope/sim"
)

// Reentry in Curator's InterProcessMutex is the client's own business
// (apache/curator, tag apache-curator-5.9.0,
// curator-recipes/src/main/java/org/apache/curator/framework/recipes/locks/InterProcessMutex.java):
// internalLock finds the thread's LockData in threadData and only
// increments its lockCount ("re-entering", return true) — no request to
// ZooKeeper, no look at the connection — and release decrements it,
// returning while it is above 0; only at 0 does it call
// internals.releaseLock (delete the znode) and drop the LockData.
//
// lockCount is that count: 1 from the grant, 2 inside the nested section
// of the reenter option; 0 when the client holds nothing.

// armReentry, at a grant, sets lockCount to 1 and schedules the
// re-entry the scenario asks for, in execution time.
func (c *zkClient) armReentry(ctx sim.Ctx) {
	c.lockCount = 1
	if at := Reenter.Of(ctx.Scenario()).D(); at > 0 {
		ctx.Exec(at, sim.Timer{Kind: timerReenter, Seq: int64(c.Round)})
	}
}

// fireReentry handles the re-entry's timers; false for another timer.
// Neither sends anything: the count is the client's.
func (c *zkClient) fireReentry(ctx sim.Ctx, t sim.Timer) bool {
	if t.Kind != timerReenter && t.Kind != timerInnerUnlock {
		return false
	}
	if c.State != sim.StateHolding || c.Stopped() || t.Seq != int64(c.Round) || c.lockCount == 0 {
		return true // the grant it belonged to is over, or the worker stopped
	}
	if t.Kind == timerReenter {
		c.lockCount++
		ctx.TraceSaid(traceLock, "acquire", fmt.Sprintf("acquire() again while holding: lockCount %d, nothing sent", c.lockCount),
			sim.Say("note.zk.reentered", "n", fmt.Sprint(c.lockCount)))
		ctx.Exec(Reenter.Of(ctx.Scenario()).D(), sim.Timer{Kind: timerInnerUnlock, Seq: int64(c.Round)})
		return true
	}
	c.lockCount--
	ctx.TraceSaid(traceLock, "release", fmt.Sprintf("inner release(): lockCount %d, the znode stays", c.lockCount),
		sim.Say("note.zk.innerRelease", "n", fmt.Sprint(c.lockCount)))
	return true
}

// Reentered is the holder's lockCount (InterProcessMutex's LockData).
func (c *zkClient) Reentered() int { return c.lockCount }

// checkNested: the inner section, from at to 2·at into the work, must
// end before the work does.
func checkNested(sc *sim.Scenario) error {
	at := Reenter.Of(sc).D()
	if w := sc.Work.D(); at > 0 && 2*at >= w {
		return sim.FieldErr("reenter", sim.Say("field.reenterWork", "t", at.String(), "end", (2*at).String(), "work", w.String()),
			"%v: the inner section (%v to %v into the work) must end before the work (%v) does", at, at, 2*at, w)
	}
	return nil
}
