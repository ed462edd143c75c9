package redlock

import "github.com/lockscope/lockscope/sim"

// Redlock's masters are Redis servers (redis.RedisServer): its requests
// and their replies are package redis's ops (redis.OpSet, redis.OpCAD,
// redis.OpPExpire, redis.OpOK, redis.OpInt, ...).

// Timer kinds of redsync's Mutex.
const (
	timerRedlockDeadline    sim.TimerKind = "deadline"    // a batch's answers are due (all at once)
	timerRedlockCtxDone     sim.TimerKind = "ctxdone"     // redsync's deadline passed; go-redis still reads (contextTimeout off)
	timerRedlockNodeTimeout sim.TimerKind = "nodetimeout" // sequential: one master's answer is due
	timerRedlockValidity    sim.TimerKind = "validity"    // the validity ran out on the client's clock
	timerRedlockWatchdog    sim.TimerKind = "watchdog"    // time to extend
)

// redlockSeqStride packs a batch number and a master index into one Msg.Seq.
const redlockSeqStride = 16
