package zookeeper

import (
	"strconv"

	"github.com/lockscope/lockscope/sim"
)

// Curator's LeaderLatch, the election recipe of "use": "election", as
// apache/curator curator-recipes/src/main/java/org/apache/curator/
// framework/recipes/leader/LeaderLatch.java (tag apache-curator-5.9.0)
// has it:
//
//   - reset(): setLeadership(false), a guaranteed delete of the old node,
//     then client.create().creatingParentContainersIfNeeded()
//     .withProtection().withMode(EPHEMERAL_SEQUENTIAL) of
//     latchPath/LOCK_NAME, LOCK_NAME = "latch-": the lock's protected
//     create with another name (newAttempt, the create's find);
//   - getChildren() then checkLeadership(children): our node missing:
//     reset(); the lowest: getData() of our own node, and if its
//     ephemeralOwner is this session, setLeadership(true) (isLeader);
//     otherwise setLeadership(false) and getData().usingWatcher() on the
//     node just before ours, getChildren() again on its NodeDeleted or
//     when it is already gone (NONODE);
//   - handleStateChange: SUSPENDED: setLeadership(false) when the
//     ConnectionStateErrorPolicy calls SUSPENDED an error state (Curator's
//     default StandardConnectionStateErrorPolicy does; its
//     SessionConnectionStateErrorPolicy only calls LOST one): here
//     respectSuspended on is the standard policy, off the session policy;
//     LOST: setLeadership(false) always; RECONNECTED: getChildren(), so a
//     leader of the same session whose node is still the lowest leads
//     again, and one whose node died with its session re-joins (reset);
//   - close(): setNode(null) (the guaranteed delete of our node) and
//     setLeadership(false): the leader resigns.
//
// setLeadership(false) calls the application's notLeader: its belief
// ends then (Loop.Tell); its worker reads hasLeadership() before its write
// (latchFinish) and stops there, keeping its node in the latch.

// LatchName is LeaderLatch's LOCK_NAME, the node's name before its
// sequence number.
const LatchName = "latch-"

// zkStepOwn is checkLeadership's getData of our own node, the lowest: is
// its ephemeralOwner still this session?
const zkStepOwn = "own"

// zkLatch is what a LeaderLatch participant keeps beside the lock
// recipe's steps.
type zkLatch struct {
	periods int // periods of the leader's work done since it became leader
}

// nodeName is the sequential node's name before its number: the lock's
// "lock-" or the latch's "latch-".
func nodeName(sc *sim.Scenario) string {
	if Electing(sc) {
		return LatchName
	}
	return LockName
}

// latchRechecking reports a participant that led, was told notLeader
// (SUSPENDED) and, reconnected in the same session, checks its leadership
// again: the recipe's replies are its own though it is not waiting.
func (c *zkClient) latchRechecking(ctx sim.Ctx) bool {
	return Electing(ctx.Scenario()) && c.State == sim.StateHolding && (c.Stopped() || c.Told()) && c.step != ""
}

// latchLowest is checkLeadership finding our node the lowest: getData of
// it, to see that its ephemeralOwner is this session.
func (c *zkClient) latchLowest(ctx sim.Ctx) {
	c.step = zkStepOwn
	c.call(ctx, OpGetData, LockPath+"/"+c.ourPath, false, false)
}

// latchOwnReply handles the answer to latchLowest's getData; false for a
// reply that is not that.
func (c *zkClient) latchOwnReply(ctx sim.Ctx, cl zkCall, m *sim.Msg) bool {
	if !Electing(ctx.Scenario()) || c.step != zkStepOwn || cl.path != LockPath+"/"+c.ourPath {
		return false
	}
	if m.Op != OpOK { // the node is gone: reset()
		c.newAttempt(ctx)
		return true
	}
	c.step = ""
	c.latch.periods = 0
	if ctx.Tracing() {
		ctx.TraceSaid(traceLock, "isLeader", c.ourPath+" is the lowest node: setLeadership(true)",
			sim.Say("note.zk.isLeader", "node", c.ourPath))
	}
	if c.State == sim.StateHolding {
		c.Resume(ctx, c.Token, 0) // leader again after RECONNECTED
		return true
	}
	c.Grant(ctx, c.ourSeq, 0)
	return true
}

// latchReconnected is handleStateChange's RECONNECTED for a leader told
// notLeader in the same session: getChildren() and checkLeadership again,
// instead of the lock's Resume at once. It reports whether it took the
// case.
func (c *zkClient) latchReconnected(ctx sim.Ctx) bool {
	if !Electing(ctx.Scenario()) {
		return false
	}
	c.step = zkStepList
	c.call(ctx, OpGetChildren, LockPath, false, false)
	return true
}

// latchNotLeader is setLeadership(false) reaching the application's
// notLeader: it no longer believes it leads.
func (c *zkClient) latchNotLeader(ctx sim.Ctx, why string) {
	var words sim.Words
	if ctx.Tracing() {
		words = sim.Say("note.zk.notLeader", "why", why)
	}
	c.Tell(ctx, "notLeader ("+why+"): it no longer believes it leads", words)
}

// latchFinish is the leader's worker at the end of a period: it reads
// hasLeadership() before its write. A LOST session ends the leadership
// (its node is gone; the next round joins again), a notLeader of
// SUSPENDED stops it with its node kept. It reports whether it took the
// case (election use).
func (c *zkClient) latchFinish(ctx sim.Ctx) bool {
	if !Electing(ctx.Scenario()) {
		return false
	}
	switch {
	case c.flagLost:
		c.ourPath, c.step = "", ""
		c.Lost(ctx, "hasLeadership() is false (LOST): it does not write", sim.Say("note.zk.notLeaderNoWrite", "why", SessionLost))
	case c.flagSuspended && RespectSuspended.Of(ctx.Scenario()):
		c.Stop(ctx, "hasLeadership() is false (SUSPENDED): it does not write", sim.Say("note.zk.notLeaderNoWrite", "why", SessionSuspended))
	default:
		c.Write(ctx, c.Token)
	}
	return true
}

// latchNextPeriod is the leader, its write answered, starting its next
// period of work; false when it resigns instead (its periods are done, or
// it was told notLeader) or the client runs the lock.
func (c *zkClient) latchNextPeriod(ctx sim.Ctx) bool {
	sc := ctx.Scenario()
	if !Electing(sc) || c.Told() {
		return false
	}
	c.latch.periods++
	if n := LeadPeriods.Of(sc); n > 0 && c.latch.periods >= n {
		if ctx.Tracing() {
			ctx.TraceSaid(traceLock, "close", "close(): "+strconv.Itoa(c.latch.periods)+" periods led, it resigns",
				sim.Say("note.zk.resign", "n", strconv.Itoa(c.latch.periods)))
		}
		return false
	}
	c.Again(ctx)
	return true
}
