package redlock

import "github.com/lockscope/lockscope/sim"

// Redlock's masters are Redis servers (redis.Server): its requests
// and their replies are package redis's ops (redis.OpSet, redis.OpCAD,
// redis.OpPExpire, redis.OpOK, redis.OpInt, ...).

// Timer kinds of redsync's Mutex.
var (
	timerRedlockDeadline    = sim.NewTimerKind("deadline")    // a batch's answers are due (all at once)
	timerRedlockCtxDone     = sim.NewTimerKind("ctxdone")     // redsync's deadline passed; go-redis still reads (contextTimeout off)
	timerRedlockNodeTimeout = sim.NewTimerKind("nodetimeout") // sequential: one master's answer is due
	timerRedlockValidity    = sim.NewTimerKind("validity")    // the validity ran out on the client's clock
	timerRedlockWatchdog    = sim.NewTimerKind("watchdog")    // time to extend
)

// Trace kinds of redsync's Mutex.
var (
	traceRedlock  = sim.NewTraceKind("redlock")  // a round's verdict: granted, failed, validity ran out
	traceWatchdog = sim.NewTraceKind("watchdog") // an extension
)

// A request's id (its Seq, and its timer's) names the batch it belongs
// to and the master it went to, so an answer to a batch already decided
// is told apart: batch*redlockSeqStride + master, which only requestID
// and attemptOf work out.
const redlockSeqStride = 16

// requestID is the id of the request to master i in batch.
func requestID(batch int64, i int) int64 { return batch*redlockSeqStride + int64(i) }

// attemptOf is the batch and the master of an answer.
func attemptOf(m *sim.Msg) (batch int64, i int) {
	return m.Seq / redlockSeqStride, int(m.Seq % redlockSeqStride)
}
